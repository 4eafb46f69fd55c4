import { formatDecimal } from "./formatDecimal.js";

// Percentages are shown with this many decimals, truncated toward zero.
const PERCENT_DIGITS = 6;

/** (price / openPrice - 1) x 100, truncated to 6 decimals; null when either is unknown or openPrice is 0. */
export function priceChangePercentage(
  openPrice: bigint | undefined,
  price: bigint | undefined,
): string | null {
  if (openPrice === undefined || price === undefined || openPrice === 0n) return null;
  const scaled = ((price - openPrice) * 100n * 10n ** BigInt(PERCENT_DIGITS)) / openPrice;
  return formatDecimal(scaled, PERCENT_DIGITS);
}
