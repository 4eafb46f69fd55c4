import DataLoader from "dataloader";
import type { CandleSubject, CandleTotals, MarketReader } from "../domain/market.js";
import type { Address, NetworkName } from "../domain/types.js";

/** A token's trading over the last day, from its hourly USD candles. */
export interface TokenDayStats {
  /** Summed quoteVolume: the USD value (10^18-scaled) of the trades that sold or bought the token. */
  volumeUsd: bigint;
  tradeCount: number;
}

const HOUR = 3_600;
const DAY = 86_400;
/** The hourly buckets from the one holding now - 24 h to the one holding now. */
export const DAY_STATS_BUCKETS = DAY / HOUR + 1;

/**
 * Start of the 24-hour stats window at `now` (unix seconds): the hourly bucket holding now - 24 h.
 * The window therefore spans 24 to 25 hours, whole hourly buckets up to now.
 */
export function dayStatsFrom(now: number): number {
  return Math.floor((now - DAY) / HOUR) * HOUR;
}

/** A pool's trading over the last day, from its hourly candles. */
export interface PoolDayStats {
  /** The USD value of the trades through the pool; undefined when a bucket's value is unknown (Candle.volumeUsd). */
  volumeUsd: bigint | undefined;
  tradeCount: number;
}

/**
 * Creates a per-request loader of 24-hour stats of one kind of series on one network: the series
 * a request asks for (tokens as ERC-20 addresses, callers map the native coin to its wrapped
 * token; or pools) are read together, as one store read of at most DAY_STATS_BUCKETS hourly
 * candles per series over the primary key.
 */
function createDayStatsLoader<T>(
  reader: MarketReader,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
  pick: (total: CandleTotals | undefined) => T,
): DataLoader<Address, T> {
  return new DataLoader<Address, T>(async (subjects) => {
    // Up to `now`: a bucket stamped after it (a clock behind the indexer's) is kept out.
    const totals = await reader.sumCandles(network, {
      kind,
      subjects,
      interval: HOUR,
      fromTimestamp: dayStatsFrom(now),
      toTimestamp: now,
    });
    return subjects.map((subject) => pick(totals.get(subject)));
  });
}

/** The per-request loader of tokens' 24-hour stats on one network (see createDayStatsLoader). */
export function createTokenDayStatsLoader(
  reader: MarketReader,
  network: NetworkName,
  now: number,
): DataLoader<Address, TokenDayStats> {
  return createDayStatsLoader(reader, network, "token", now, (total) => ({
    volumeUsd: total?.quoteVolume ?? 0n,
    tradeCount: total?.tradeCount ?? 0,
  }));
}

/** The per-request loader of pools' 24-hour stats on one network (see createDayStatsLoader). */
export function createPoolDayStatsLoader(
  reader: MarketReader,
  network: NetworkName,
  now: number,
): DataLoader<Address, PoolDayStats> {
  return createDayStatsLoader(reader, network, "pool", now, (total) => ({
    // No bucket: no trade, a known zero.
    volumeUsd: total === undefined ? 0n : total.volumeUsd,
    tradeCount: total?.tradeCount ?? 0,
  }));
}
