import {
  addCandleTotals,
  addKnown,
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  type CandleQuery,
  type CandleSubject,
  type CandleSumQuery,
  type CandleTotals,
  comparePositions,
  POOL_PRICE_SCALE,
  type TradePosition,
} from "../domain/market.js";
import { type Address, NATIVE, type Trade } from "../domain/types.js";
import { BadRequestError } from "../errors.js";

// Candles are derived from the trades alone, so the store can rebuild any bucket from the rows it
// holds and a test can recompute every candle from the stored trades:
// - Token candles chart USD per whole token. A trade samples each of its two tokens at the price
//   the pricing rules gave that token right after the trade's transaction (TradeMarks; the price
//   its USD value is computed from when it has no stablecoin side). The rules never price
//   through thin pools, so a trade in a thin pool moves the token's volume, never its USD price;
//   an unpriced side (untracked trades, unknown tokens) adds volume and a trade but no price.
//   The native coin is charted as its wrapped token. The intermediate tokens of a multi-hop
//   trade are not its sides: they get nothing (their pools do).
// - Pool candles chart the pool's own execution price, token1 per token0 (smallest units, scaled
//   by 10^36), one sample per swap through the pool, from the amounts its Swap log names (every
//   hop of a multi-hop trade); a swap with nothing on one side adds volume but no price.
// - Order: trades by (block, transaction, log), then a trade's sides in before out, then its
//   hops in route order. open is the first priced sample, close the last, high/low the extremes.
// - Buckets start at multiples of their interval since the epoch (days start 00:00 UTC).
// - Upkeep, in the commit's transaction: a commit whose trades all follow the stored ones merges
//   its folded buckets into the stored rows (mergeCandles). Anything else (a rollback, a
//   re-commit, trades below the newest stored one) rebuilds the minute buckets it touched from
//   the trades stored after the change, then each 5-minute, hour and day bucket above them from
//   its finer rows (rollUpCandles): high and low are recomputed, never subtracted, so they are
//   exact, and the work is bounded by the touched buckets, never by a day's trades.
// - Prune drops whole days, in every interval at once, so a kept bucket always has its finer rows.

/** The stored kind of a series: 0 token (USD), 1 pool (token terms). */
export type CandleKind = 0 | 1;
export const TOKEN_CANDLE: CandleKind = 0;
export const POOL_CANDLE: CandleKind = 1;

/** A candle with the series and bucket it belongs to: one row of the candles table. */
export interface CandleRow extends Candle {
  kind: CandleKind;
  /** The token (wrapped for the native coin) or the pool address. */
  subject: string;
  interval: CandleInterval;
}

/** What one trade adds to one series, before it is placed in a bucket. */
export interface CandleSample {
  kind: CandleKind;
  subject: string;
  price: bigint | undefined;
  volume: bigint;
  quoteVolume: bigint;
  /** The trade's USD value. */
  volumeUsd: bigint;
}

/** The identity of a candle row (series and bucket) as a map key. */
function candleKey(kind: CandleKind, subject: string, interval: number, start: number): string {
  return `${kind}:${subject}:${interval}:${start}`;
}

/** The key of a row. */
export function keyOf(row: Pick<CandleRow, "kind" | "subject" | "interval" | "start">): string {
  return candleKey(row.kind, row.subject, row.interval, row.start);
}

/** The stored kind and subject of a query's series. */
export function subjectKey(subject: CandleSubject): { kind: CandleKind; subject: string } {
  return subject.kind === "token"
    ? { kind: TOKEN_CANDLE, subject: subject.token }
    : { kind: POOL_CANDLE, subject: subject.pool };
}

/** Start of the bucket of `interval` seconds that holds `timestamp` (unix seconds, not negative). */
export function bucketStart(timestamp: number, interval: number): number {
  return timestamp - (timestamp % interval);
}

/** What a trade adds to candles, in sample order; nothing when it carries no marks. */
export function tradeCandleSamples(trade: Trade): CandleSample[] {
  const { marks } = trade;
  if (marks === undefined) return [];
  const samples: CandleSample[] = [];
  const keyIn = trade.tokenIn === NATIVE ? marks.native : trade.tokenIn;
  const keyOut = trade.tokenOut === NATIVE ? marks.native : trade.tokenOut;
  const token = (subject: string, volume: bigint, price: bigint | undefined) =>
    samples.push({
      kind: TOKEN_CANDLE,
      subject,
      price,
      volume,
      quoteVolume: trade.volumeUsd,
      volumeUsd: trade.volumeUsd,
    });
  if (keyIn !== undefined && keyIn === keyOut) {
    // A round trip (a cycle, or native to wrapped): one trade of the token, both amounts.
    token(keyIn, trade.amountIn + trade.amountOut, marks.priceInUsd ?? marks.priceOutUsd);
  } else {
    if (keyIn !== undefined) token(keyIn, trade.amountIn, marks.priceInUsd);
    if (keyOut !== undefined) token(keyOut, trade.amountOut, marks.priceOutUsd);
  }
  marks.hops.forEach((hop, i) => {
    const pool = trade.pools[i];
    if (pool === undefined) return;
    const amount0 = hop.zeroForOne ? hop.amountIn : hop.amountOut;
    const amount1 = hop.zeroForOne ? hop.amountOut : hop.amountIn;
    samples.push({
      kind: POOL_CANDLE,
      subject: pool,
      price: amount0 > 0n && amount1 > 0n ? (amount1 * POOL_PRICE_SCALE) / amount0 : undefined,
      volume: amount0,
      quoteVolume: amount1,
      volumeUsd: trade.volumeUsd,
    });
  });
  return samples;
}

/** A row's candle without its series. */
export function candleOf(row: CandleRow): Candle {
  const { start, open, high, low, close, volume, quoteVolume, tradeCount, volumeUsd } = row;
  return { start, open, high, low, close, volume, quoteVolume, tradeCount, volumeUsd };
}

/** The candle of one sample. */
function sampleCandle(sample: CandleSample, start: number): Candle {
  const { price } = sample;
  return {
    start,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: sample.volume,
    quoteVolume: sample.quoteVolume,
    tradeCount: 1,
    volumeUsd: sample.volumeUsd,
  };
}

const max = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined || a >= b ? a : b;
const min = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined ? b : b === undefined || a <= b ? a : b;

/**
 * Joins two candles of one bucket (or a bucket and a bucket it contains) where every trade of
 * `earlier` precedes every trade of `later`: exact for all fields, so buckets can grow by
 * appending and coarse buckets can be rolled up from fine ones. Keeps `earlier`'s start.
 */
function mergeCandles<T extends Candle>(earlier: T, later: Candle): T {
  return {
    ...earlier,
    open: earlier.open ?? later.open,
    high: max(earlier.high, later.high),
    low: min(earlier.low, later.low),
    close: later.close ?? earlier.close,
    volume: earlier.volume + later.volume,
    quoteVolume: earlier.quoteVolume + later.quoteVolume,
    tradeCount: earlier.tradeCount + later.tradeCount,
    volumeUsd: addKnown(earlier.volumeUsd, later.volumeUsd),
  };
}

/**
 * Sums candle rows (any intervals and order) per subject into `totals` (new by default): what
 * sumCandles answers. Rows are added as they come, so a read of many series never holds them all.
 */
export function sumCandleRows(
  rows: Iterable<CandleRow>,
  totals: Map<Address, CandleTotals> = new Map(),
): Map<Address, CandleTotals> {
  for (const row of rows) addCandleTotals(totals, row.subject as Address, row);
  return totals;
}

/** Largest number of series one sumCandles statement reads (bound parameters stay far below limits). */
export const SUM_CANDLES_CHUNK = 500;

/** The interval the candles_hourly index holds: what a sumCandles query without subjects reads. */
const HOURLY = 3_600;

/** Throws BadRequestError for an unknown interval or a bad range of a sumCandles query. */
export function assertCandleSumQuery(query: CandleSumQuery): void {
  if (query.subjects === undefined && query.interval !== HOURLY) {
    throw new BadRequestError("Invalid candle interval.", {
      details: `got ${query.interval}, expected ${HOURLY} seconds: only hourly candles are summed by time`,
    });
  }
  assertCandleQuery({
    subject: { kind: "token", token: "0x" as Address },
    interval: query.interval,
    fromTimestamp: query.fromTimestamp,
    toTimestamp: query.toTimestamp,
    limit: 1,
  });
}

/**
 * Folds trades into candle rows for the given intervals, keyed by candleKey. Trades are sorted
 * by position here; `include` keeps only some rows (a recompute of chosen buckets).
 */
export function buildCandleRows(
  trades: readonly Trade[],
  intervals: readonly CandleInterval[] = CANDLE_INTERVALS,
  include?: (key: string) => boolean,
): Map<string, CandleRow> {
  const rows = new Map<string, CandleRow>();
  // The same rows found by kind, subject, interval (its place in `intervals`) and start: a key
  // string is made per row, not per sample and interval (the hot loop of every commit).
  const series: [Map<string, Map<number, CandleRow>[]>, Map<string, Map<number, CandleRow>[]>] = [
    new Map(),
    new Map(),
  ];
  for (const trade of [...trades].sort(comparePositions)) {
    for (const sample of tradeCandleSamples(trade)) {
      const { price } = sample;
      let byInterval = series[sample.kind].get(sample.subject);
      if (byInterval === undefined) {
        byInterval = intervals.map(() => new Map<number, CandleRow>());
        series[sample.kind].set(sample.subject, byInterval);
      }
      for (let i = 0; i < intervals.length; i++) {
        const interval = intervals[i]!;
        const start = bucketStart(trade.timestamp, interval);
        const row = byInterval[i]!.get(start);
        if (row === undefined) {
          const key = candleKey(sample.kind, sample.subject, interval, start);
          if (include !== undefined && !include(key)) continue;
          const made: CandleRow = {
            kind: sample.kind,
            subject: sample.subject,
            interval,
            ...sampleCandle(sample, start),
          };
          byInterval[i]!.set(start, made);
          rows.set(key, made);
          continue;
        }
        // The rows are this fold's own: merged in place (the hot loop of every commit).
        if (price !== undefined) {
          row.open ??= price;
          if (row.high === undefined || price > row.high) row.high = price;
          if (row.low === undefined || price < row.low) row.low = price;
          row.close = price;
        }
        row.volume += sample.volume;
        row.quoteVolume += sample.quoteVolume;
        row.tradeCount += 1;
        row.volumeUsd = addKnown(row.volumeUsd, sample.volumeUsd);
      }
    }
  }
  return rows;
}

/**
 * The minute buckets a set of trades touches (the finest rows a recompute must rebuild), with
 * the time span that holds them.
 */
export function touchedMinutes(trades: readonly Trade[]): {
  keys: Set<string>;
  rows: CandleRow[];
  from: number;
  to: number;
} {
  const rows = buildCandleRows(trades, [60]);
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const row of rows.values()) {
    from = Math.min(from, row.start);
    to = Math.max(to, row.start + 60);
  }
  return { keys: new Set(rows.keys()), rows: [...rows.values()], from, to };
}

/** A bucket whose row must be rebuilt from the rows of the next finer interval. */
export interface CandleParent {
  kind: CandleKind;
  subject: string;
  interval: CandleInterval;
  start: number;
  /** The finer interval its rows are rolled up from. */
  finer: CandleInterval;
}

/** The buckets of `interval` that hold the given finer rows, once each. */
export function parentsOf(
  children: readonly Pick<CandleRow, "kind" | "subject" | "interval" | "start">[],
  interval: CandleInterval,
  finer: CandleInterval,
): CandleParent[] {
  const parents = new Map<string, CandleParent>();
  for (const child of children) {
    const start = bucketStart(child.start, interval);
    const key = candleKey(child.kind, child.subject, interval, start);
    if (!parents.has(key))
      parents.set(key, { kind: child.kind, subject: child.subject, interval, start, finer });
  }
  return [...parents.values()];
}

/**
 * The row of each parent rolled up from its finer rows (any order; those outside a parent are
 * ignored), or undefined for a parent with no finer row left (its row must go).
 */
export function rollUpCandles(
  parents: readonly CandleParent[],
  finerRows: readonly CandleRow[],
): { parent: CandleParent; row: CandleRow | undefined }[] {
  const byKey = new Map(finerRows.map((row) => [keyOf(row), row]));
  return parents.map((parent) => {
    let row: CandleRow | undefined;
    // Ascending starts: each finer row's trades all follow the previous one's.
    for (let start = parent.start; start < parent.start + parent.interval; start += parent.finer) {
      const child = byKey.get(candleKey(parent.kind, parent.subject, parent.finer, start));
      if (child === undefined) continue;
      row =
        row === undefined
          ? { ...child, interval: parent.interval, start: parent.start }
          : mergeCandles(row, child);
    }
    return { parent, row };
  });
}

/** The intervals in roll-up order: each is rebuilt from the one before. */
export const ROLL_UPS: readonly { interval: CandleInterval; finer: CandleInterval }[] =
  CANDLE_INTERVALS.slice(1).map((interval, i) => ({ interval, finer: CANDLE_INTERVALS[i]! }));

/**
 * Whether a commit may grow candles by appending: nothing it replaces carried candle data and
 * every trade it adds follows `last`, the newest trade stored before it. Otherwise the buckets
 * it touches are rebuilt from the stored trades (a re-commit, or trades committed out of order).
 */
export function canAppendCandles(
  last: TradePosition | undefined,
  added: readonly Trade[],
  removed: readonly Trade[],
): boolean {
  if (removed.some((trade) => trade.marks !== undefined)) return false;
  if (last === undefined) return true;
  return added.every((trade) => comparePositions(trade, last) > 0);
}

/** The largest page listCandles returns. */
const MAX_CANDLE_PAGE = 10_000;

/** Throws BadRequestError for an unknown interval, a limit outside 1..10,000 or a negative time. */
export function assertCandleQuery(query: CandleQuery): void {
  const { limit, interval, fromTimestamp, toTimestamp } = query;
  if (!(CANDLE_INTERVALS as readonly number[]).includes(interval)) {
    throw new BadRequestError("Invalid candle interval.", {
      details: `got ${interval}, expected one of ${CANDLE_INTERVALS.join(", ")} seconds`,
    });
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CANDLE_PAGE) {
    throw new BadRequestError("Invalid candle page limit.", {
      details: `got ${limit}, expected an integer from 1 to ${MAX_CANDLE_PAGE}`,
    });
  }
  for (const time of toTimestamp === undefined ? [fromTimestamp] : [fromTimestamp, toTimestamp]) {
    if (!Number.isSafeInteger(time) || time < 0) {
      throw new BadRequestError("Invalid candle time range.", {
        details: `got ${time}, expected unix seconds (a non-negative integer)`,
      });
    }
  }
}
