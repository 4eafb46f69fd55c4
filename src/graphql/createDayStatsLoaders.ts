import DataLoader from "dataloader";
import type { CandleSubject, CandleTotals, MarketReader } from "../domain/market.js";
import type { Address, NetworkName } from "../domain/types.js";
import type { PoolIndex } from "../pricing/types.js";

/** A token's trading over the last day, from its hourly USD candles. */
export interface TokenDayStats {
  /** Summed quoteVolume: the USD value (10^18-scaled) of the trades that sold or bought the token. */
  volumeUsd: bigint;
  tradeCount: number;
}

const HOUR = 3_600;
const DAY = 86_400;

/**
 * Start of the 24-hour stats window at `now` (unix seconds): the hourly bucket holding now - 24 h.
 * The window therefore spans 24 to 25 hours, whole hourly buckets up to now.
 */
export function dayStatsFrom(now: number): number {
  return Math.floor((now - DAY) / HOUR) * HOUR;
}

/** The end of the stats window at `now`: the start of the hourly bucket holding now (the last bucket read). */
function dayStatsTo(now: number): number {
  return now - (now % HOUR);
}

interface TotalsMemo {
  key: string;
  totals: Promise<Map<Address, CandleTotals>>;
}

// One memo per live pool graph (a reload that replaces the graph drops it) and kind of series.
const memos = new WeakMap<PoolIndex, Map<CandleSubject["kind"], TotalsMemo>>();

// The set of series moves with the graph too: a new pool (and the token it brings) is an update.
function memoKey(reader: MarketReader, network: NetworkName, now: number): string {
  return [reader.getPoolIndex(network).version, reader.status(network).indexedBlock, dayStatsTo(now)].join(
    ":",
  );
}

/** The whole-kind totals of the current state when a request already asked for them, else undefined. */
function peekAllDayTotals(
  reader: MarketReader,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
): Promise<Map<Address, CandleTotals>> | undefined {
  const memo = memos.get(reader.getPoolIndex(network))?.get(kind);
  return memo?.key === memoKey(reader, network, now) ? memo.totals : undefined;
}

/**
 * The 24-hour totals of every series of a kind on a network (every known token, or every indexed
 * pool): what ordering a whole list by volume needs. Computed at most once per indexed state and
 * hour, and shared by all requests meanwhile, so the cost of such requests is bounded by the
 * block rate, never by the request rate (one read is a primary-key range per series: about
 * 20,000 series for the tokens a BSC indexer discovers). The state is the graph's version, which
 * every applied block with a swap changes (each swap syncs its pool's reserves, a reorg restores
 * them), and the indexed block; the window depends only on the hour.
 */
export function loadAllDayTotals(
  reader: MarketReader,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
): Promise<Map<Address, CandleTotals>> {
  const index = reader.getPoolIndex(network);
  const key = memoKey(reader, network, now);
  let byKind = memos.get(index);
  if (byKind === undefined) {
    byKind = new Map();
    memos.set(index, byKind);
  }
  const memo = byKind.get(kind);
  if (memo?.key === key) return memo.totals;
  const subjects =
    kind === "pool"
      ? index.all().map((pool) => pool.address)
      : reader.listKnownTokens(network).map((token) => token.address as Address);
  const totals = reader.sumCandles(network, {
    kind,
    subjects,
    interval: HOUR,
    fromTimestamp: dayStatsFrom(now),
    toTimestamp: dayStatsTo(now),
  });
  const entry = { key, totals };
  byKind.set(kind, entry);
  // A failed read is not remembered: the next request tries again.
  totals.catch(() => {
    if (byKind.get(kind) === entry) byKind.delete(kind);
  });
  return totals;
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
 * token; or pools) are read together, as one store read of at most 25 hourly candles per series
 * over the primary key.
 */
function createDayStatsLoader<T>(
  reader: MarketReader,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
  pick: (total: CandleTotals | undefined) => T,
): DataLoader<Address, T> {
  return new DataLoader<Address, T>(async (subjects) => {
    // Answered by the whole-kind totals when a list already read them for this state.
    const shared = peekAllDayTotals(reader, network, kind, now);
    // Up to the bucket holding `now`: one stamped later (a clock behind the indexer's) is kept out.
    const totals = await (shared ??
      reader.sumCandles(network, {
        kind,
        subjects,
        interval: HOUR,
        fromTimestamp: dayStatsFrom(now),
        toTimestamp: dayStatsTo(now),
      }));
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
