import { formatDecimal } from "./formatDecimal.js";
import { POOL_PRICE_DIGITS, POOL_PRICE_SCALE } from "./market.js";

/**
 * A pool price (token1 per token0 in smallest units, scaled by 10^36) as token1 per whole token0:
 * exact, trailing zeros removed, as candles, books and listings print it.
 */
export function formatPoolPrice(raw: bigint, decimals0: number, decimals1: number): string {
  const digits = POOL_PRICE_DIGITS + decimals1 - decimals0;
  return digits >= 0 ? formatDecimal(raw, digits) : formatDecimal(raw * 10n ** BigInt(-digits), 0);
}

/**
 * The price of `numerator` smallest units of token1 for `denominator` of token0 (amounts a swap
 * moved), truncated to 36 digits of smallest units and printed as formatPoolPrice does.
 */
export function formatPoolRatio(
  numerator: bigint,
  denominator: bigint,
  decimals0: number,
  decimals1: number,
): string {
  return formatPoolPrice((numerator * POOL_PRICE_SCALE) / denominator, decimals0, decimals1);
}
