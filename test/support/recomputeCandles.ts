import { expect } from "vitest";
import {
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  type CandleSubject,
  POOL_PRICE_SCALE,
} from "../../src/domain/market.js";
import type { Address, NetworkName, Trade } from "../../src/domain/types.js";

/** One candle series: what it charts and its width. */
export interface CandleSeries {
  subject: CandleSubject;
  interval: CandleInterval;
}

export interface Sample {
  subject: CandleSubject;
  price: bigint | undefined;
  volume: bigint;
  quoteVolume: bigint;
  /** The USD value of the sample's trade. */
  volumeUsd: bigint;
  timestamp: number;
  /** Chain position, then the sample's place within its trade. */
  order: [bigint, number, number, number];
}

const seriesKey = (subject: CandleSubject, interval: number) =>
  `${subject.kind}:${subject.kind === "token" ? subject.token : subject.pool}:${interval}`;

/** The series a trade (with marks) touches, at every width. */
export function seriesOf(trades: readonly Trade[]): CandleSeries[] {
  const out = new Map<string, CandleSeries>();
  for (const sample of trades.flatMap(samplesOf)) {
    for (const interval of CANDLE_INTERVALS) {
      out.set(seriesKey(sample.subject, interval), { subject: sample.subject, interval });
    }
  }
  return [...out.values()];
}

// The candle rules written out again, independently of src/store/buildCandles.ts: a token side
// samples its token at its marked price (the native coin as its wrapped token, a trade with the
// same token on both sides once with both amounts), each hop samples its pool at amount1/amount0.
export function samplesOf(trade: Trade): Sample[] {
  const { marks } = trade;
  if (marks === undefined) return [];
  const position = (i: number): Sample["order"] => [trade.blockNumber, trade.txIndex, trade.logIndex, i];
  const out: Sample[] = [];
  const sides = [
    {
      token: trade.tokenIn === "" ? marks.native : trade.tokenIn,
      amount: trade.amountIn,
      price: marks.priceInUsd,
    },
    {
      token: trade.tokenOut === "" ? marks.native : trade.tokenOut,
      amount: trade.amountOut,
      price: marks.priceOutUsd,
    },
  ].filter(
    (side): side is { token: Address; amount: bigint; price: bigint | undefined } => side.token !== undefined,
  );
  const [first, second] = sides;
  const merged =
    first !== undefined && second !== undefined && first.token === second.token
      ? [{ token: first.token, amount: first.amount + second.amount, price: first.price ?? second.price }]
      : sides;
  for (const side of merged) {
    out.push({
      subject: { kind: "token", token: side.token },
      price: side.price,
      volume: side.amount,
      quoteVolume: trade.volumeUsd,
      volumeUsd: trade.volumeUsd,
      timestamp: trade.timestamp,
      order: position(out.length),
    });
  }
  marks.hops.forEach((hop, i) => {
    const [amount0, amount1] = hop.zeroForOne ? [hop.amountIn, hop.amountOut] : [hop.amountOut, hop.amountIn];
    out.push({
      subject: { kind: "pool", pool: trade.pools[i]! },
      price: amount0 === 0n || amount1 === 0n ? undefined : (amount1 * POOL_PRICE_SCALE) / amount0,
      volume: amount0,
      quoteVolume: amount1,
      volumeUsd: trade.volumeUsd,
      timestamp: trade.timestamp,
      order: position(out.length),
    });
  });
  return out;
}

export function compareOrder(a: Sample["order"], b: Sample["order"]): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}

/** Every candle of every series, recomputed from trades alone, each series ascending by start. */
export function recomputeCandles(trades: readonly Trade[]): Map<string, Candle[]> {
  const buckets = new Map<string, Map<number, Sample[]>>();
  for (const sample of trades.flatMap(samplesOf)) {
    for (const interval of CANDLE_INTERVALS) {
      const key = seriesKey(sample.subject, interval);
      const start = Math.floor(sample.timestamp / interval) * interval;
      const series = buckets.get(key) ?? new Map<number, Sample[]>();
      buckets.set(key, series);
      series.set(start, [...(series.get(start) ?? []), sample]);
    }
  }
  const out = new Map<string, Candle[]>();
  for (const [key, series] of buckets) {
    const candles: Candle[] = [];
    for (const [start, samples] of [...series].sort((a, b) => a[0] - b[0])) {
      samples.sort((a, b) => compareOrder(a.order, b.order));
      const prices = samples.flatMap((s) => (s.price === undefined ? [] : [s.price]));
      candles.push({
        start,
        open: prices[0],
        high: prices.length === 0 ? undefined : prices.reduce((a, b) => (a > b ? a : b)),
        low: prices.length === 0 ? undefined : prices.reduce((a, b) => (a < b ? a : b)),
        close: prices.at(-1),
        volume: samples.reduce((sum, s) => sum + s.volume, 0n),
        quoteVolume: samples.reduce((sum, s) => sum + s.quoteVolume, 0n),
        tradeCount: samples.length,
        volumeUsd: samples.reduce((sum, s) => sum + s.volumeUsd, 0n),
      });
    }
    out.set(key, candles);
  }
  return out;
}

/** Something that lists candles: the store or the live views. */
export interface CandleLister {
  listCandles(
    network: NetworkName,
    query: { subject: CandleSubject; interval: CandleInterval; fromTimestamp: number; limit: number },
  ): Promise<readonly Candle[]>;
}

/**
 * Expects the lister's candles of every given series (and of every series the trades touch)
 * to equal a recompute from `trades`; returns how many candles were compared.
 */
export async function expectCandlesEqualRecompute(
  lister: CandleLister,
  network: NetworkName,
  trades: readonly Trade[],
  also: readonly CandleSeries[] = [],
): Promise<number> {
  const expected = recomputeCandles(trades);
  const series = new Map<string, CandleSeries>();
  for (const s of [...seriesOf(trades), ...also]) series.set(seriesKey(s.subject, s.interval), s);
  let compared = 0;
  for (const [key, { subject, interval }] of series) {
    const stored = await lister.listCandles(network, { subject, interval, fromTimestamp: 0, limit: 10_000 });
    const want = expected.get(key) ?? [];
    expect([...stored], key).toEqual(want);
    compared += want.length;
  }
  return compared;
}
