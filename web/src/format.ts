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

function toScaled(value: string): { units: bigint; scale: number } {
  const [whole = "0", fraction = ""] = value.split(".");
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** The exact product of two non-negative decimal strings, e.g. multiplyDecimal("1.5", "2.25") = "3.375". */
export function multiplyDecimal(a: string, b: string): string {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = x.scale + y.scale;
  const digits = (x.units * y.units).toString().padStart(scale + 1, "0");
  if (scale === 0) return digits;
  const fraction = digits.slice(-scale).replace(/0+$/, "");
  return `${digits.slice(0, -scale)}${fraction === "" ? "" : `.${fraction}`}`;
}

/** A UTC time of day "HH:MM:SS" of unix seconds. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 19);
}
