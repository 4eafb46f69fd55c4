import type { PoolSwapTotals } from "../domain/market.js";
import type { Address, NetworkName } from "../domain/types.js";
import type { PoolIndex } from "../pricing/types.js";
import type { MarketHistory, MarketState } from "./types.js";

const DAY = 86_400;

/**
 * Every pool's swaps over the rolling 24 hours of the served state: block timestamps in
 * (at - 24 h, at], `at` the indexed block's time, up to the indexed block.
 */
export interface RollingPoolDay {
  /** The indexed block the window ends with. */
  block: bigint;
  /** Its timestamp: the window's end, inclusive (unix seconds). */
  at: number;
  /** The window's start, exclusive: at - 86,400. */
  after: number;
  totals: Map<Address, PoolSwapTotals>;
}

interface Memo {
  key: string;
  day: Promise<RollingPoolDay>;
}

// One read per live pool graph and indexed state, shared by every request and pool that asks.
const memos = new WeakMap<PoolIndex, Memo>();

/**
 * The rolling 24-hour swaps of every pool of `network` (Pool.volumeToken0_24h ... priceLow24h and
 * the listings' 24-hour figures): one grouped store read over the window's pool events
 * (Store.sumPoolSwaps) per indexed state, kept while the state lasts. The window ends at the
 * indexed block's timestamp, not the request's clock, so every answer at one block says the same
 * and a block's swaps are counted the moment it is served. `now` (unix seconds) stands in for the
 * block's time only when the store no longer holds that block.
 */
export function getRollingPoolDay(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  now: number,
): Promise<RollingPoolDay> {
  const index = reader.getPoolIndex(network);
  const block = reader.status(network).indexedBlock ?? 0n;
  const key = `${index.version}:${block}`;
  const memo = memos.get(index);
  if (memo?.key === key) return memo.day;
  const day = (async (): Promise<RollingPoolDay> => {
    const at = (await reader.getStoredBlock(network, block))?.timestamp ?? now;
    const after = at - DAY;
    const totals = await reader.sumPoolSwaps(network, {
      afterTimestamp: Math.max(0, after),
      maxBlock: block,
    });
    return { block, at, after, totals };
  })();
  const kept: Memo = { key, day };
  memos.set(index, kept);
  // A failed read is not remembered: the next request tries again.
  day.catch(() => {
    if (memos.get(index) === kept) memos.delete(index);
  });
  return day;
}
