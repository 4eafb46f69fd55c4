// Bulk writes send one array literal per column through unnest() instead of one parameter per value
// (which would pass the 65,535-parameter limit at 20k rows and costs far more to bind).

/** Array literal of numbers, bigints or booleans: their text never needs quoting. */
export function plainArray(values: readonly (number | bigint | boolean)[]): string {
  return `{${values.join(",")}}`;
}

/** Array literal of text: every element quoted, so "" (the native coin) and commas (pools) survive. */
export function textArray(values: readonly string[]): string {
  if (values.length === 0) return "{}";
  // Hashes and addresses never need escaping; token names and symbols might.
  const escaped = values.some((v) => v.includes('"') || v.includes("\\"))
    ? values.map((v) => v.replace(/[\\"]/g, "\\$&"))
    : values;
  return `{"${escaped.join('","')}"}`;
}

/** Array literal of optional numbers: undefined becomes NULL. */
export function nullableArray(values: readonly (number | bigint | undefined)[]): string {
  return `{${values.map((value) => (value === undefined ? "NULL" : value.toString())).join(",")}}`;
}

/** Array literal of optional text: undefined becomes NULL, the rest is quoted as in textArray. */
export function nullableTextArray(values: readonly (string | undefined)[]): string {
  if (values.length === 0) return "{}";
  return `{${values
    .map((value) => (value === undefined ? "NULL" : `"${value.replace(/[\\"]/g, "\\$&")}"`))
    .join(",")}}`;
}
