import { parseUnits } from "viem";

/** Token amount in smallest units worth `usdE18` (USD scaled by 10^18) at `priceE18` per whole token. */
export function usdToUnits(usdE18: bigint, priceE18: bigint, decimals: number): bigint {
  if (priceE18 <= 0n) throw new Error("usdToUnits: price must be positive");
  return (usdE18 * 10n ** BigInt(decimals)) / priceE18;
}

/** Parses a decimal USD string ("0.00002", "600") into USD scaled by 10^18. */
export function parseUsd(value: string): bigint {
  return parseUnits(value, 18);
}
