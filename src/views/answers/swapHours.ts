/** Seconds in an hour, the unit /api/swaps_24h keeps its rendering in. */
export const HOUR = 3_600;

/** The start of every hour the window [from, now] touches. */
export function hoursOf(from: number, now: number): number[] {
  const hours: number[] = [];
  for (let start = from - (from % HOUR); start <= now; start += HOUR) hours.push(start);
  return hours;
}

/**
 * Whether the hour starting at `start` is settled when no stored trade before `settledBefore`
 * (MarketReader.settledBefore, unix seconds) can change any more: it ended by then, so each of its
 * blocks is indexed and below any reorg the indexer follows (one deeper than the finality depth
 * halts the network instead). A token's metadata does not change while the process runs, so
 * neither do the hour's bytes: they are rendered once.
 */
export function isSettledHour(start: number, settledBefore: number): boolean {
  return start + HOUR <= settledBefore;
}
