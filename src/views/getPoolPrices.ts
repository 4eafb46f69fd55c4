import { priceChangePercentage } from "../domain/priceChangePercentage.js";
import type { PriceInstant } from "../domain/tradeStats.js";
import type { Address, NetworkName } from "../domain/types.js";
import { getRollingPoolDay } from "./getRollingPoolDay.js";
import type { MarketReader } from "./types.js";

/** A pool's Pool.lastTradePrice and Pool.priceChangePercentage24h before formatting. */
export interface PoolPrices {
  /**
   * The executed price of the newest swap through the pool at or below the indexed block, trades
   * of the current second included; undefined when the stored window holds none (or not asked).
   */
  last: bigint | undefined;
  /**
   * The change over the rolling 24 hours of the pool's other 24-hour figures (getRollingPoolDay:
   * (at - 24 h, at], at the indexed block's time): the last price at or before `at` against the
   * last at or before at - 24 h; null when either is unknown (or not asked).
   */
  change24h: string | null;
}

/** Which of a pool's prices to read. */
export interface PoolPriceFigures {
  last: boolean;
  change24h: boolean;
}

const BOTH: PoolPriceFigures = { last: true, change24h: true };

/**
 * The prices of `pools` on `network` at `now` (unix seconds), every pool's in one grouped store
 * read (Store.getPoolLastPrices: a fixed number of statements however many pools) of up to three
 * instants: now + 1 at the indexed block (last), and the rolling day's start + 1 and end + 1 at
 * the day's block (change24h).
 */
export async function getPoolPrices(
  reader: MarketReader,
  network: NetworkName,
  pools: readonly Address[],
  now: number,
  figures: PoolPriceFigures = BOTH,
): Promise<Map<Address, PoolPrices>> {
  const instants: PriceInstant[] = [];
  if (figures.last) {
    // Trades strictly before the next second: every indexed trade up to now.
    instants.push({ beforeTimestamp: now + 1, maxBlock: reader.status(network).indexedBlock ?? 0n });
  }
  if (figures.change24h) {
    const day = await getRollingPoolDay(reader, network, now);
    // A day that starts before the epoch (a test chain's) has nothing before its start.
    instants.push(
      { beforeTimestamp: Math.max(0, day.after + 1), maxBlock: day.block },
      { beforeTimestamp: day.at + 1, maxBlock: day.block },
    );
  }
  const out = new Map<Address, PoolPrices>();
  if (instants.length === 0 || pools.length === 0) return out;
  const prices = await reader.getPoolLastPrices(network, { pools, instants });
  const day = figures.last ? 1 : 0;
  for (const pool of pools) {
    const at = prices.get(pool) ?? [];
    out.set(pool, {
      last: figures.last ? at[0] : undefined,
      change24h: figures.change24h ? priceChangePercentage(at[day], at[day + 1]) : null,
    });
  }
  return out;
}
