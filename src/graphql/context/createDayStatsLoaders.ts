import DataLoader from "dataloader";
import { addCandleTotals, type CandleSubject, type CandleTotals } from "../../domain/market.js";
import type { Address, NetworkName } from "../../domain/types.js";
import type { PoolIndex } from "../../pricing/types.js";
import type { MarketHistory, MarketState } from "../../views/types.js";

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
 * @internal exported for tests, which call this step alone.
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

/** The whole-kind reads of one kind of series on one live pool graph. */
interface KindReads {
  /** The totals of the newest state asked for (a read running, queued or done). */
  memo?: TotalsMemo | undefined;
  /** The read running now, if any. */
  running?: Promise<unknown> | undefined;
  /** The read that starts when the running one ends, shared by every state asked for meanwhile. */
  queued?: { hour: number; totals: Promise<Map<Address, CandleTotals>> } | undefined;
  /** The settled hours of a window, summed once: no commit or reorg can change them any more. */
  settled?: { from: number; to: number; totals: Promise<Map<Address, CandleTotals>> } | undefined;
}

/** Two sets of totals added up, in a new map. */
function addTotals(
  base: ReadonlyMap<Address, CandleTotals>,
  more: ReadonlyMap<Address, CandleTotals>,
): Map<Address, CandleTotals> {
  const out = new Map<Address, CandleTotals>();
  for (const [subject, total] of [...base, ...more]) addCandleTotals(out, subject, total);
  return out;
}

// One set per live pool graph (a reload that replaces the graph drops it) and kind of series.
const reads = new WeakMap<PoolIndex, Map<CandleSubject["kind"], KindReads>>();

function readsOf(index: PoolIndex, kind: CandleSubject["kind"]): KindReads {
  let byKind = reads.get(index);
  if (byKind === undefined) {
    byKind = new Map();
    reads.set(index, byKind);
  }
  let entry = byKind.get(kind);
  if (entry === undefined) {
    entry = {};
    byKind.set(kind, entry);
  }
  return entry;
}

// The set of series moves with the graph too: a new pool (and the token it brings) is an update.
function memoKey(reader: MarketState & MarketHistory, network: NetworkName, now: number): string {
  return [reader.getPoolIndex(network).version, reader.status(network).indexedBlock, dayStatsTo(now)].join(
    ":",
  );
}

/** The whole-kind totals of the current state when a request already asked for them, else undefined. */
function peekAllDayTotals(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
): Promise<Map<Address, CandleTotals>> | undefined {
  const memo = reads.get(reader.getPoolIndex(network))?.get(kind)?.memo;
  return memo?.key === memoKey(reader, network, now) ? memo.totals : undefined;
}

/**
 * The 24-hour totals of every series of a kind on a network (every token, or every pool, that
 * traded): what ordering a whole list by volume needs. A read sums the hourly candles by time
 * (readWindow: the settled hours once per window, only the last hour or two again), and reads
 * are shared and never pile up: a state already read (or being read) is not read again;
 * at most one read per kind runs at a time, and the states asked for while it runs share one
 * read that starts when it ends and sees the store as it is then (the newest of them, or newer).
 * The cost therefore follows the block rate and the read time, never the request rate. The
 * state is the graph's version, which every applied block with a swap changes (each swap syncs
 * its pool's reserves, a reorg restores them), and the indexed block; the window depends only on
 * the hour.
 */
export function loadAllDayTotals(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  kind: CandleSubject["kind"],
  now: number,
): Promise<Map<Address, CandleTotals>> {
  const index = reader.getPoolIndex(network);
  const key = memoKey(reader, network, now);
  const entry = readsOf(index, kind);
  if (entry.memo?.key === key) return entry.memo.totals;
  const hour = dayStatsTo(now);
  if (entry.queued !== undefined && entry.queued.hour === hour) {
    entry.memo = { key, totals: entry.queued.totals };
    return entry.queued.totals;
  }
  const read = (): Promise<Map<Address, CandleTotals>> => {
    const running = readWindow(reader, network, kind, entry, dayStatsFrom(now), hour);
    entry.running = running;
    const done = () => {
      if (entry.running === running) entry.running = undefined;
    };
    running.then(done, done);
    return running;
  };
  let totals: Promise<Map<Address, CandleTotals>>;
  if (entry.running === undefined) {
    totals = read();
  } else {
    const queued = entry.running.then(
      () => undefined,
      () => undefined,
    );
    totals = queued.then(() => {
      if (entry.queued?.totals === totals) entry.queued = undefined;
      return read();
    });
    entry.queued = { hour, totals };
  }
  const memo = { key, totals };
  entry.memo = memo;
  // A failed read is not remembered: the next request tries again.
  totals.catch(() => {
    if (entry.memo === memo) entry.memo = undefined;
  });
  return totals;
}

/**
 * Every series' totals over the hourly buckets from `from` to `hour` (starts, inclusive), read by
 * time: the settled hours (those that ended before the oldest block a reorg could still replace)
 * once per window and kept, the rest (the last hour or two) from the store each time.
 */
async function readWindow(
  reader: MarketState & MarketHistory,
  network: NetworkName,
  kind: CandleSubject["kind"],
  entry: KindReads,
  from: number,
  hour: number,
): Promise<Map<Address, CandleTotals>> {
  const settledBefore = await reader.settledBefore(network);
  // Buckets that start before this ended before the settled instant.
  const settledTo =
    settledBefore === undefined
      ? from
      : Math.max(from, Math.min(settledBefore - (settledBefore % HOUR), hour));
  let settled = entry.settled;
  if (settledTo > from && (settled === undefined || settled.from !== from || settled.to !== settledTo)) {
    const totals = reader.sumCandles(network, {
      kind,
      interval: HOUR,
      fromTimestamp: from,
      toTimestamp: settledTo - HOUR,
    });
    settled = { from, to: settledTo, totals };
    entry.settled = settled;
    const kept = settled;
    totals.catch(() => {
      if (entry.settled === kept) entry.settled = undefined;
    });
  }
  const recent = await reader.sumCandles(network, {
    kind,
    interval: HOUR,
    fromTimestamp: settledTo,
    toTimestamp: hour,
  });
  return settledTo > from && settled !== undefined ? addTotals(await settled.totals, recent) : recent;
}

/** A pool's trading over the last day, from its hourly candles. */
export interface PoolDayStats {
  /** The USD value of the trades through the pool; undefined when a bucket's value is unknown (Candle.volumeUsd). */
  volumeUsd: bigint | undefined;
  tradeCount: number;
  /** token0 and token1 through the pool, smallest units. */
  volume0: bigint;
  volume1: bigint;
  /** Highest and lowest executed price (token1 per token0, smallest units, 10^36-scaled); undefined without a priced swap. */
  high: bigint | undefined;
  low: bigint | undefined;
}

/**
 * Creates a per-request loader of 24-hour stats of one kind of series on one network: the series
 * a request asks for (tokens as ERC-20 addresses, callers map the native coin to its wrapped
 * token; or pools) are read together, as one store read of at most 25 hourly candles per series
 * over the primary key.
 */
function createDayStatsLoader<T>(
  reader: MarketState & MarketHistory,
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
  reader: MarketState & MarketHistory,
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
  reader: MarketState & MarketHistory,
  network: NetworkName,
  now: number,
): DataLoader<Address, PoolDayStats> {
  return createDayStatsLoader(reader, network, "pool", now, (total) => ({
    // No bucket: no trade, a known zero.
    volumeUsd: total === undefined ? 0n : total.volumeUsd,
    tradeCount: total?.tradeCount ?? 0,
    volume0: total?.volume ?? 0n,
    volume1: total?.quoteVolume ?? 0n,
    high: total?.high,
    low: total?.low,
  }));
}
