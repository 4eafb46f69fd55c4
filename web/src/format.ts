// Display formatting of the API's exact decimal strings. Values are never turned into floats
// for display: a float would show 0.30000000000000004 where the API said 0.3.

/** Groups the integer part of a decimal string by thousands and cuts the fraction to `digits` (truncating). */
export function formatDecimal(value: string, digits: number): string {
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? value.slice(1) : value).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const cut = fraction.slice(0, digits).replace(/0+$/, "");
  return `${negative ? "-" : ""}${grouped}${cut === "" ? "" : `.${cut}`}`;
}

/** A USD amount as shown on the dashboard: "$1,234.50" (truncated to cents). */
export function formatUsd(value: string): string {
  const [whole, cents = ""] = formatDecimal(value, 2).split(".");
  return `$${whole}.${cents.padEnd(2, "0")}`;
}

/**
 * A non-negative decimal string in smallest units of a token with `decimals` (exact), e.g.
 * toUnits("2.5", 18) = "2500000000000000000". Throws for anything else, or more fraction
 * digits than the token has.
 */
export function toUnits(amount: string, decimals: number): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (match === null) throw new Error(`${amount} is not an amount: digits, optionally with a fraction.`);
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) throw new Error(`The token has ${decimals} decimals: ${amount} has more.`);
  return BigInt(`${match[1]}${fraction.padEnd(decimals, "0")}`).toString();
}

/** Smallest units as a decimal string of whole tokens (exact, trailing zeros removed). */
export function fromUnits(units: string, decimals: number): string {
  if (decimals === 0) return BigInt(units).toString();
  const digits = BigInt(units)
    .toString()
    .padStart(decimals + 1, "0");
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return `${digits.slice(0, -decimals)}${fraction === "" ? "" : `.${fraction}`}`;
}

/** A fraction of 1 ("0.0042") as a percentage, truncated to `digits` ("0.42"); exact. */
export function formatPercent(fraction: string, digits = 2): string {
  return formatDecimal(fromUnits(toUnits(fraction, 40), 38), digits);
}

/** A UTC time of day "HH:MM:SS" of unix seconds. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 19);
}
