/** Seconds in an hour, the unit /api/swaps_24h keeps its rendering in. */
export const HOUR = 3_600;

// An hour is settled, and its rendering kept, once the indexed data is this far past its end:
// every block of the hour is then indexed (block timestamps follow the clock: none is stamped an
// hour late) and below any reorg the indexer follows (one deeper than the finality depth, minutes
// on every network, halts the network instead, and a network that does not serve drops its kept
// hours). A token's metadata does not change while the process runs, so neither do the bytes.
const SETTLE_SECONDS = 3_600;

/** The start of every hour the window [from, now] touches. */
export function hoursOf(from: number, now: number): number[] {
  const hours: number[] = [];
  for (let start = from - (from % HOUR); start <= now; start += HOUR) hours.push(start);
  return hours;
}

/**
 * Whether the hour starting at `start` is settled when the indexed data reaches `indexedUntil`
 * (Unix seconds). The window's first hour is never kept: the window starts inside it.
 */
export function isSettledHour(start: number, indexedUntil: number): boolean {
  return start + HOUR + SETTLE_SECONDS <= indexedUntil;
}
