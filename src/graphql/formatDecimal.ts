/**
 * Formats `value / 10^decimals` as a plain decimal string: exact with trailing zeros removed,
 * or, with `fixedDigits`, truncated toward zero and padded to exactly that many digits.
 */
export function formatDecimal(value: bigint, decimals: number, fixedDigits?: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = decimals === 0 ? "" : (abs % scale).toString().padStart(decimals, "0");
  let digits: string;
  if (fixedDigits === undefined) {
    digits = fraction.replace(/0+$/, "");
  } else {
    digits = fraction.slice(0, fixedDigits).padEnd(fixedDigits, "0");
  }
  const text = digits === "" ? whole.toString() : `${whole}.${digits}`;
  // Truncation can leave nothing but zeros: never print "-0" or "-0.00000000".
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}
