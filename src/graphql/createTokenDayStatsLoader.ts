import DataLoader from "dataloader";
import type { MarketReader } from "../domain/market.js";
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

/**
 * Creates a per-request loader of 24-hour stats for one network: each token (an ERC-20 address;
 * callers map the native coin to its wrapped token) is read once per request, as one bounded
 * read of at most DAY_STATS_BUCKETS hourly candles over the candle table's primary key.
 */
export function createTokenDayStatsLoader(
  reader: MarketReader,
  network: NetworkName,
  now: number,
): DataLoader<Address, TokenDayStats> {
  const fromTimestamp = dayStatsFrom(now);
  return new DataLoader<Address, TokenDayStats>(async (tokens) =>
    Promise.all(
      tokens.map(async (token) => {
        const candles = await reader.listCandles(network, {
          subject: { kind: "token", token },
          interval: HOUR,
          fromTimestamp,
          limit: DAY_STATS_BUCKETS,
        });
        let volumeUsd = 0n;
        let tradeCount = 0;
        for (const candle of candles) {
          // The read has no end: a bucket stamped after `now` (a clock behind the indexer's) is kept out.
          if (candle.start > now) continue;
          volumeUsd += candle.quoteVolume;
          tradeCount += candle.tradeCount;
        }
        return { volumeUsd, tradeCount };
      }),
    ),
  );
}
