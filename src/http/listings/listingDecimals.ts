/*
 * Exact decimal strings for the listing endpoints, made on bigint, never on floats.
 */

// Pool prices carry 36 digits of smallest units of token1 per smallest unit of token0, as the
// pool candles do (Candle.high/low of a pool), so a state price and a candle price print alike.
const POOL_PRICE_DIGITS = 36;
const POOL_PRICE_SCALE = 10n ** BigInt(POOL_PRICE_DIGITS);

/** `value / 10^scale` as a plain decimal string, exact, trailing zeros removed. */
export function fromUnits(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "");
  const text = fraction === "" ? whole : `${whole}.${fraction}`;
  return negative && text !== "0" ? `-${text}` : text;
}

/**
 * The price of one whole token0 in token1 given as a ratio of smallest units (numerator /
 * denominator), truncated to 36 digits of smallest units, as the pool candles print it.
 */
export function formatPoolRatio(
  numerator: bigint,
  denominator: bigint,
  decimals0: number,
  decimals1: number,
): string {
  const raw = (numerator * POOL_PRICE_SCALE) / denominator;
  const digits = POOL_PRICE_DIGITS + decimals1 - decimals0;
  return digits >= 0 ? fromUnits(raw, digits) : fromUnits(raw * 10n ** BigInt(-digits), 0);
}
