import {
  addKnown,
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  type CandleSubject,
} from "../../domain/market.js";
import type { NetworkName } from "../../domain/types.js";
import type { MarketHistory } from "../../views/types.js";

const HOUR = 3_600;
// The store's largest candle page.
const STORE_PAGE = 10_000;

/** Widths the candles query folds from hourly candles (4 and 12 hours), in seconds. */
const AGGREGATED_INTERVALS = [14_400, 43_200] as const;
export type AggregatedInterval = (typeof AGGREGATED_INTERVALS)[number];

/** What readCandleBuckets reads: buckets from the one holding `from`, starting before `to`, at most `first`. */
export interface CandleBucketsQuery {
  subject: CandleSubject;
  interval: CandleInterval | AggregatedInterval;
  from: number;
  to: number | undefined;
  first: number;
}

const isStored = (interval: number): interval is CandleInterval =>
  (CANDLE_INTERVALS as readonly number[]).includes(interval);

/**
 * A series' buckets, ascending: a stored width straight from the store; a 4- or 12-hour width
 * folded from the hourly candles of each bucket (UTC-aligned: buckets start at multiples of the
 * width since 1970-01-01 00:00 UTC), at most first x (width / 1 h) hourly rows read.
 */
export async function readCandleBuckets(
  reader: MarketHistory,
  network: NetworkName,
  query: CandleBucketsQuery,
): Promise<Candle[]> {
  const { subject, interval, from, to, first } = query;
  const bounds = to === undefined ? {} : { toTimestamp: to };
  if (isStored(interval)) {
    return [
      ...(await reader.listCandles(network, {
        subject,
        interval,
        fromTimestamp: from,
        limit: first,
        ...bounds,
      })),
    ];
  }
  const start = from - (from % interval);
  // Each bucket holds at most width / 1 h hourly rows: this many rows cover `first` whole buckets.
  let remaining = first * (interval / HOUR);
  const hours: Candle[] = [];
  let cursor = start;
  while (remaining > 0) {
    const page = await reader.listCandles(network, {
      subject,
      interval: HOUR,
      fromTimestamp: cursor,
      limit: Math.min(remaining, STORE_PAGE),
      ...bounds,
    });
    hours.push(...page);
    remaining -= page.length;
    const last = page.at(-1);
    if (last === undefined || page.length < STORE_PAGE) break;
    cursor = last.start + HOUR;
  }
  return foldCandles(hours, interval).slice(0, first);
}

/**
 * Candles folded into buckets of `interval` seconds (a multiple of theirs), ascending: open is the
 * first priced open, close the last priced close, high and low the extremes, volumes and counts
 * summed (volumeUsd unknown when any part is).
 * @internal exported for tests, which call this step alone.
 */
export function foldCandles(candles: readonly Candle[], interval: number): Candle[] {
  const out: Candle[] = [];
  for (const candle of candles) {
    const start = candle.start - (candle.start % interval);
    const bucket = out.at(-1);
    if (bucket === undefined || bucket.start !== start) {
      out.push({ ...candle, start });
      continue;
    }
    bucket.open ??= candle.open;
    if (candle.close !== undefined) bucket.close = candle.close;
    if (candle.high !== undefined && (bucket.high === undefined || candle.high > bucket.high))
      bucket.high = candle.high;
    if (candle.low !== undefined && (bucket.low === undefined || candle.low < bucket.low))
      bucket.low = candle.low;
    bucket.volume += candle.volume;
    bucket.quoteVolume += candle.quoteVolume;
    bucket.tradeCount += candle.tradeCount;
    bucket.volumeUsd = addKnown(bucket.volumeUsd, candle.volumeUsd);
  }
  return out;
}

/**
 * Every bucket from the one holding `from` to the last starting before `end`, at most `first`: an
 * absent bucket carries the previous bucket's close (or `previousClose` before the first) as its
 * open, high, low and close, with zero volumes and trades; before any price it has none.
 */
export function fillCandles(
  candles: readonly Candle[],
  options: { from: number; end: number; interval: number; first: number; previousClose: bigint | undefined },
): Candle[] {
  const { from, end, interval, first } = options;
  const byStart = new Map(candles.map((candle) => [candle.start, candle]));
  const out: Candle[] = [];
  let close = options.previousClose;
  for (let start = from - (from % interval); start < end && out.length < first; start += interval) {
    const candle = byStart.get(start);
    if (candle !== undefined) {
      out.push(candle);
      close = candle.close ?? close;
      continue;
    }
    out.push({
      start,
      open: close,
      high: close,
      low: close,
      close,
      volume: 0n,
      quoteVolume: 0n,
      tradeCount: 0,
      volumeUsd: 0n,
    });
  }
  return out;
}
