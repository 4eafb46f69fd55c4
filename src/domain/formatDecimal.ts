/**
 * Formats `value / 10^decimals` as a plain decimal string: exact with trailing zeros removed,
 * or, with `fixedDigits`, truncated toward zero and padded to exactly that many digits.
 */
export function formatDecimal(value: bigint, decimals: number, fixedDigits?: number): string {
  if (!Number.isSafeInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a non-negative integer, got ${decimals}.`);
  }
  const negative = value < 0n;
  // Digits, not division: a list formats three amounts a row, and BigInt division allocates.
  const all = (negative ? -value : value).toString();
  let whole: string;
  let fraction: string;
  if (all.length > decimals) {
    whole = decimals === 0 ? all : all.slice(0, all.length - decimals);
    fraction = decimals === 0 ? "" : all.slice(all.length - decimals);
  } else {
    whole = "0";
    fraction = all.padStart(decimals, "0");
  }
  let digits: string;
  if (fixedDigits === undefined) {
    let end = fraction.length;
    while (end > 0 && fraction.charCodeAt(end - 1) === 48) end--;
    digits = fraction.slice(0, end);
  } else {
    digits =
      fraction.length >= fixedDigits ? fraction.slice(0, fixedDigits) : fraction.padEnd(fixedDigits, "0");
  }
  const text = digits === "" ? whole : `${whole}.${digits}`;
  // Truncation can leave nothing but zeros: never print "-0" or "-0.00000000".
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}
