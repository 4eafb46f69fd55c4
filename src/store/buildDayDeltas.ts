/** Seconds in a UTC day: day numbers are floor(timestamp / DAY_SECONDS). */
const DAY_SECONDS = 86_400;

/** The UTC day number of a unix timestamp (seconds). */
export function dayOf(timestamp: number): number {
  // Not Math.floor(timestamp / DAY_SECONDS): the rounded quotient can reach the next integer for
  // large values, while the remainder and the division of an exact multiple are exact.
  const rest = timestamp % DAY_SECONDS;
  return (timestamp - rest) / DAY_SECONDS - (rest < 0 ? 1 : 0);
}

/** What one trade adds to its day's aggregate (read back from a deleted row, or from a new trade). */
export interface TradeContribution {
  timestamp: number;
  sender: string;
  volumeUsd: bigint;
  tracked: boolean;
}

/** The change of one day's aggregate; traderCount is filled in once the day_traders changes are applied. */
export interface DayDelta {
  day: number;
  volumeUsd: bigint;
  tradeCount: number;
  untrackedCount: number;
  traderCount: number;
}

/** The change of one sender's trade count on one day (never 0). */
export interface TraderDelta {
  day: number;
  sender: string;
  trades: number;
}

export interface DayDeltas {
  /** By day number; a day whose trades cancel out may carry only a traderCount change later. */
  days: Map<number, DayDelta>;
  traders: TraderDelta[];
}

/**
 * Nets the contributions of removed and added trades per day and per (day, sender), in bigint,
 * so a re-committed trade that did not change costs no aggregate write at all.
 */
export function buildDayDeltas(
  added: readonly TradeContribution[],
  removed: readonly TradeContribution[],
): DayDeltas {
  const days = new Map<number, DayDelta>();
  const traders = new Map<string, TraderDelta>();
  const apply = (trade: TradeContribution, sign: 1 | -1) => {
    const day = dayOf(trade.timestamp);
    let delta = days.get(day);
    if (delta === undefined) {
      delta = { day, volumeUsd: 0n, tradeCount: 0, untrackedCount: 0, traderCount: 0 };
      days.set(day, delta);
    }
    delta.volumeUsd += sign === 1 ? trade.volumeUsd : -trade.volumeUsd;
    delta.tradeCount += sign;
    if (!trade.tracked) delta.untrackedCount += sign;
    const key = `${day}:${trade.sender}`;
    const trader = traders.get(key);
    if (trader === undefined) traders.set(key, { day, sender: trade.sender, trades: sign });
    else trader.trades += sign;
  };
  for (const trade of removed) apply(trade, -1);
  for (const trade of added) apply(trade, 1);
  for (const [day, delta] of days) {
    if (delta.volumeUsd === 0n && delta.tradeCount === 0 && delta.untrackedCount === 0) days.delete(day);
  }
  return { days, traders: [...traders.values()].filter((t) => t.trades !== 0) };
}

/** How a sender's day count moving from `before` to `after` trades changes the day's distinct senders. */
export function traderCountChange(before: number, after: number): number {
  return (after > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
}

/** Adds the trader count changes to the day deltas, creating a day entry where only senders changed. */
export function addTraderCounts(
  days: Map<number, DayDelta>,
  changes: Iterable<readonly [number, number]>,
): void {
  for (const [day, change] of changes) {
    if (change === 0) continue;
    const delta = days.get(day);
    if (delta === undefined) {
      days.set(day, { day, volumeUsd: 0n, tradeCount: 0, untrackedCount: 0, traderCount: change });
    } else delta.traderCount += change;
  }
}
