/** The UTC calendar date (YYYY-MM-DD) of a unix timestamp in seconds. */
export function utcDate(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}
