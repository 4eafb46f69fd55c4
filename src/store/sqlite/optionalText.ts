/** A decimal TEXT value, or NULL for an unknown one. */
export function optionalText(value: bigint | undefined): string | null {
  return value === undefined ? null : value.toString();
}
