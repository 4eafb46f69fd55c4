import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pino } from "pino";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { formatPoolPrice } from "../../src/domain/formatPoolPrice.js";
import type { Candle, CandleSubject } from "../../src/domain/market.js";
import type { Trade } from "../../src/domain/types.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import type { Store } from "../../src/store/types.js";
import { sendSwap, startTestDevnet } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { compareOrder, recomputeCandles, samplesOf } from "../support/recomputeCandles.js";
import { spyReader } from "../support/spyReader.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { readAllPages } from "./readConnection.js";
import { gql } from "./support.js";

// The real path: anvil's DEX pools -> indexer -> store (SQLite and PostgreSQL) -> yoga. Every
// window's stats are recomputed from the stored trades with the rules written out again here.
const silent = { info() {}, warn() {}, error() {} };
const WINDOW = `window from to openPrice priceChangePercentage buys sells buyers sellers volumeUSD`;
const STATS = `stats { asOf blockNumber price m5 { ${WINDOW} } h1 { ${WINDOW} } h6 { ${WINDOW} } h24 { ${WINDOW} } }`;
const WINDOWS = [
  ["m5", 300],
  ["h1", 3_600],
  ["h6", 21_600],
  ["h24", 86_400],
] as const;

interface ShownWindow {
  window: string;
  from: number;
  to: number;
  openPrice: string | null;
  priceChangePercentage: string | null;
  buys: number;
  sells: number;
  buyers: number;
  sellers: number;
  volumeUSD: string;
}
interface ShownStats {
  asOf: number;
  blockNumber: string;
  price: string | null;
  m5: ShownWindow;
  h1: ShownWindow;
  h6: ShownWindow;
  h24: ShownWindow;
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;

const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 23, v3: false });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

/** The last priced sample of a series among trades before `before` (the candle rules, written out in test/support). */
function priceBefore(trades: readonly Trade[], subject: CandleSubject, before: number): bigint | undefined {
  const key = subject.kind === "token" ? subject.token : subject.pool;
  const samples = trades
    .filter((trade) => trade.timestamp < before)
    .flatMap(samplesOf)
    .filter(
      (s) =>
        s.price !== undefined &&
        s.subject.kind === subject.kind &&
        (s.subject.kind === "token" ? s.subject.token : s.subject.pool) === key,
    )
    .sort((a, b) => compareOrder(a.order, b.order));
  return samples.at(-1)?.price;
}

function percent(open: bigint | undefined, now: bigint | undefined): string | null {
  if (open === undefined || now === undefined || open === 0n) return null;
  return formatDecimal(((now - open) * 100n * 10n ** 6n) / open, 6);
}

/**
 * One window recomputed from the stored trades: `side` says whether a trade bought (1), sold (-1),
 * both (2) or neither (0); undefined when the trade is not the series'.
 */
function recomputeWindow(
  trades: readonly Trade[],
  from: number,
  to: number,
  side: (trade: Trade) => { buy: boolean; sell: boolean } | undefined,
) {
  const inWindow = trades.filter((t) => t.timestamp >= from && t.timestamp < to);
  const buyers = new Set<string>();
  const sellers = new Set<string>();
  let buys = 0;
  let sells = 0;
  let volume = 0n;
  for (const trade of inWindow) {
    const s = side(trade);
    if (s === undefined) continue;
    volume += trade.volumeUsd;
    if (s.buy) {
      buys++;
      buyers.add(trade.sender);
    }
    if (s.sell) {
      sells++;
      sellers.add(trade.sender);
    }
  }
  return { buys, sells, buyers: buyers.size, sellers: sellers.size, volumeUSD: formatDecimal(volume, 18) };
}

/** A candle as the schema shows it. */
function shownCandle(
  candle: Candle,
  price: (value: bigint) => string,
  volumeDecimals: number,
  quoteDecimals: number,
) {
  const optional = (value: bigint | undefined) => (value === undefined ? null : price(value));
  return {
    start: candle.start,
    open: optional(candle.open),
    high: optional(candle.high),
    low: optional(candle.low),
    close: optional(candle.close),
    volume: formatDecimal(candle.volume, volumeDecimals),
    quoteVolume: formatDecimal(candle.quoteVolume, quoteDecimals),
    tradeCount: candle.tradeCount,
    volumeUSD: candle.volumeUsd === undefined ? null : formatDecimal(candle.volumeUsd, 18),
  };
}

/** Hourly candles folded into `width`-second buckets (UTC-aligned), written out again for the test. */
function foldHours(hours: readonly Candle[], width: number): Candle[] {
  const groups = new Map<number, Candle[]>();
  for (const hour of hours) {
    const start = Math.floor(hour.start / width) * width;
    groups.set(start, [...(groups.get(start) ?? []), hour]);
  }
  return [...groups].map(([start, group]) => {
    const opens = group.flatMap((c) => (c.open === undefined ? [] : [c.open]));
    const closes = group.flatMap((c) => (c.close === undefined ? [] : [c.close]));
    const highs = group.flatMap((c) => (c.high === undefined ? [] : [c.high]));
    const lows = group.flatMap((c) => (c.low === undefined ? [] : [c.low]));
    const sum = (pick: (c: Candle) => bigint) => group.reduce((total, c) => total + pick(c), 0n);
    return {
      start,
      open: opens[0],
      high: highs.length === 0 ? undefined : highs.reduce((a, b) => (a > b ? a : b)),
      low: lows.length === 0 ? undefined : lows.reduce((a, b) => (a < b ? a : b)),
      close: closes.at(-1),
      volume: sum((c) => c.volume),
      quoteVolume: sum((c) => c.quoteVolume),
      tradeCount: group.reduce((n, c) => n + c.tradeCount, 0),
      volumeUsd: sum((c) => c.volumeUsd ?? 0n),
    };
  });
}

describe.each(createTestStores())("market stats on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let yoga: GraphqlServer;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    yoga = createGraphqlServer({ reader: indexing.views, logger: pino({ level: "silent" }) });
    indexing.start();
    await caughtUp();
  }, 180_000);

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  async function caughtUp(): Promise<void> {
    await waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: chain.rpcUrl } });
  }

  const wrapped = () => config.native.wrapped;

  /** The token's side of a trade (the native coin as its wrapped token). */
  const tokenSide = (token: string) => (trade: Trade) => {
    const is = (ref: string) => ref === token || (ref === "" && token === wrapped());
    const buy = is(trade.tokenOut);
    const sell = is(trade.tokenIn);
    return buy || sell ? { buy, sell } : undefined;
  };
  /** The pool's side of a trade: its first crossing's hop direction (token1 in buys token0). */
  const poolSide = (pool: string) => (trade: Trade) => {
    const i = trade.pools.indexOf(pool as never);
    if (i < 0) return undefined;
    const hop = trade.marks?.hops[i];
    return { buy: hop?.zeroForOne === false, sell: hop?.zeroForOne === true };
  };

  function expectStats(
    shown: ShownStats,
    trades: readonly Trade[],
    subject: CandleSubject,
    side: (trade: Trade) => { buy: boolean; sell: boolean } | undefined,
    price: (value: bigint | undefined) => string | null,
    label: string,
  ): void {
    const now = priceBefore(trades, subject, shown.asOf);
    expect(shown.price, label).toBe(price(now));
    for (const [field, seconds] of WINDOWS) {
      const window = shown[field];
      const from = shown.asOf - seconds;
      const open = priceBefore(trades, subject, from);
      expect(window, `${label} ${field}`).toEqual({
        window: field.toUpperCase(),
        from,
        to: shown.asOf,
        openPrice: price(open),
        priceChangePercentage: percent(open, now),
        ...recomputeWindow(trades, from, shown.asOf, side),
      });
    }
  }

  const TOKENS = `query($first: Int, $after: String) { tokens(first: $first, after: $after) {
    edges { cursor node { address decimals ${STATS} } } pageInfo { hasNextPage endCursor } } }`;
  const POOLS = `query($first: Int, $after: String) { pools(first: $first, after: $after) {
    edges { cursor node { address reserve0 { token { decimals } } reserve1 { token { decimals } } ${STATS} } }
    pageInfo { hasNextPage endCursor } } }`;

  test("behavior: every window's stats of every token and pool equal a recompute from the stored trades", async () => {
    const tokens = await readAllPages<{ address: string; stats: ShownStats }>(yoga, TOKENS, "tokens", {}, 50);
    const pools = await readAllPages<{
      address: string;
      reserve0: { token: { decimals: number } };
      reserve1: { token: { decimals: number } };
      stats: ShownStats;
    }>(yoga, POOLS, "pools", {}, 50);
    const trades = await listAllTrades(store, config.name, 0);
    const head = await clientOf().getBlockNumber({ cacheTime: 0 });
    for (const { address, stats } of tokens) {
      expect(BigInt(stats.blockNumber)).toBe(head);
      const subject: CandleSubject = { kind: "token", token: address as never };
      expectStats(
        stats,
        trades,
        subject,
        tokenSide(address),
        (p) => (p === undefined ? null : formatDecimal(p, 18)),
        address,
      );
    }
    for (const { address, reserve0, reserve1, stats } of pools) {
      const digits = 36 + reserve1.token.decimals - reserve0.token.decimals;
      const subject: CandleSubject = { kind: "pool", pool: address as never };
      expectStats(
        stats,
        trades,
        subject,
        poolSide(address),
        (p) => (p === undefined ? null : formatDecimal(p, digits)),
        address,
      );
    }
    // Not vacuous: the day has trades on both sides, by several signers, and prices that moved.
    const h24 = tokens.map((t) => t.stats.h24);
    expect(h24.reduce((n, w) => n + w.buys, 0)).toBeGreaterThan(10);
    expect(h24.some((w) => w.buyers > 1 && w.sellers > 1)).toBe(true);
    expect(pools.some((p) => p.stats.h24.buys > 0 && p.stats.h24.sells > 0)).toBe(true);
    expect(h24.some((w) => w.priceChangePercentage !== null && w.priceChangePercentage !== "0")).toBe(true);
  });

  test("behavior: a mined swap moves the token's and the pool's stats as a recompute says", async () => {
    const usdt = chain.tokens.USDT!.toLowerCase();
    const query = `query($t: String!) { token(symbolOrAddress: $t) { address ${STATS} } }`;
    const read = async () =>
      (await gql(yoga, query, { t: "USDT" })).body.data?.token as { stats: ShownStats };
    const before = (await read()).stats;
    const trader = chain.traders[7]!;
    const hash = await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 17n, trader });
    await caughtUp();
    const trades = await listAllTrades(store, config.name, 0);
    const swap = trades.find((t) => t.txHash === hash.toLowerCase())!;
    // The windows end at the request's second, exclusive: a swap of this very second is in none
    // yet (a chain whose clock runs ahead of this one's, as a loaded devnet's may, makes that
    // more than a moment). Ask once the second has passed.
    await waitFor(() => Math.floor(Date.now() / 1000) > swap.timestamp, 30_000, "the swap's second to pass");
    const after = (await read()).stats;
    expect(swap.timestamp).toBeGreaterThanOrEqual(after.asOf - 300);
    expect(swap.timestamp).toBeLessThan(after.asOf);
    // The swap is in every window, and counted: without it the recompute is one buy short.
    const without = trades.filter((t) => t !== swap);
    for (const [field, seconds] of WINDOWS) {
      const rest = recomputeWindow(without, after.asOf - seconds, after.asOf, tokenSide(usdt));
      expect(after[field].buys, field).toBe(rest.buys + 1);
      expect(after[field].sells, field).toBe(rest.sells);
    }
    expect(before.asOf).toBeLessThanOrEqual(after.asOf);
    expectStats(
      after,
      trades,
      { kind: "token", token: usdt as never },
      tokenSide(usdt),
      (p) => (p === undefined ? null : formatDecimal(p, 18)),
      "USDT",
    );
    // The pool it went through: the native coin's side sold, so the pool's token0 was bought or sold by the direction.
    const pool = swap.pools[0]!;
    const poolQuery = `query($a: String!) { pool(address: $a) { ${STATS} } }`;
    const shown = (await gql(yoga, poolQuery, { a: pool })).body.data?.pool as { stats: ShownStats };
    const side = poolSide(pool)(swap)!;
    expect(side.buy || side.sell).toBe(true);
    expect(shown.stats.m5.buys + shown.stats.m5.sells).toBeGreaterThan(0);
    const window = recomputeWindow(trades, shown.stats.asOf - 300, shown.stats.asOf, poolSide(pool));
    expect({ buys: shown.stats.m5.buys, sells: shown.stats.m5.sells, buyers: shown.stats.m5.buyers }).toEqual(
      {
        buys: window.buys,
        sells: window.sells,
        buyers: window.buyers,
      },
    );
  });

  test("behavior: concurrent requests of one second and block share one store read per series; the native coin is its wrapped token", async () => {
    const log: string[] = [];
    const spied = createGraphqlServer({
      reader: spyReader(indexing.views, log, new Set(["getTradeStats"])),
      logger: pino({ level: "silent" }),
    });
    const query = `query($t: String!) { token(symbolOrAddress: $t) { ${STATS} } }`;
    for (;;) {
      log.length = 0;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => gql(spied, query, { t: i % 2 === 0 ? "BNB" : wrapped() })),
      );
      const stats = answers.map((a) => (a.body.data!.token as { stats: ShownStats }).stats);
      // Retried when a second boundary split the requests (each second reads again).
      if (new Set(stats.map((s) => s.asOf)).size > 1) continue;
      expect(new Set(stats.map((s) => JSON.stringify(s))).size).toBe(1);
      expect(log).toEqual(["getTradeStats"]);
      return;
    }
  });

  const SWAPS = `query($min: Decimal, $first: Int, $after: String, $token: String) {
    swaps(from: 0, minVolumeUSD: $min, first: $first, after: $after, token: $token) {
      edges { cursor node { txHash logIndex volumeUSD } } pageInfo { hasNextPage endCursor } } }`;

  test("behavior: swaps with minVolumeUSD page through exactly the stored trades worth at least that", async () => {
    const trades = await listAllTrades(store, config.name, 0);
    const sorted = trades.map((t) => t.volumeUsd).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const median = sorted[Math.floor(sorted.length / 2)]!;
    for (const min of [median, median + 1n, 0n]) {
      const shown = await readAllPages<{ txHash: string; logIndex: number; volumeUSD: string }>(
        yoga,
        SWAPS,
        "swaps",
        { min: formatDecimal(min, 18) },
        40,
      );
      const expected = trades.filter((t) => t.volumeUsd >= min);
      expect(shown.map((s) => `${s.txHash}:${s.logIndex}`)).toEqual(
        expected.map((t) => `${t.txHash}:${t.logIndex}`),
      );
      expect(expected.length).toBeGreaterThan(0);
      if (min > 0n) expect(expected.length).toBeLessThan(trades.length);
    }
    // With a token filter too (the merged token indexes).
    const usdt = chain.tokens.USDT!.toLowerCase();
    const shown = await readAllPages<{ txHash: string }>(
      yoga,
      SWAPS,
      "swaps",
      { min: formatDecimal(median, 18), token: "USDT" },
      20,
    );
    expect(shown.map((s) => s.txHash)).toEqual(
      trades
        .filter((t) => t.volumeUsd >= median && (t.tokenIn === usdt || t.tokenOut === usdt))
        .map((t) => t.txHash),
    );
  });

  test("error: a negative or malformed minVolumeUSD is a 400 naming it", async () => {
    for (const min of ["-1", "abc"]) {
      const { body } = await gql(yoga, SWAPS, { min });
      expect(body.errors?.[0]?.extensions?.code, min).toBe("BAD_REQUEST");
      expect(body.errors?.[0]?.message, min).toMatch(/minVolumeUSD|Decimal/);
    }
  });

  const CANDLES = `query($token: String, $pool: String, $interval: CandleInterval!, $from: Timestamp, $before: Timestamp, $fill: Boolean, $first: Int) {
    candles(token: $token, pool: $pool, interval: $interval, from: $from, before: $before, fill: $fill, first: $first) {
      start open high low close volume quoteVolume tradeCount volumeUSD } }`;
  const candles = async (variables: Record<string, unknown>) => {
    const { body } = await gql(yoga, CANDLES, variables);
    expect(body.errors).toBeUndefined();
    return body.data?.candles as ReturnType<typeof shownCandle>[];
  };

  test("behavior: 4- and 12-hour candles of a token and a pool are the hourly candles recomputed from the stored trades, folded at UTC multiples", async () => {
    const trades = await listAllTrades(store, config.name, 0);
    const recomputed = recomputeCandles(trades);
    const token = wrapped();
    const tokenHours = recomputed.get(`token:${token}:3600`)!;
    const pool = trades.find((t) => t.pools.length === 1 && t.tokenIn === "")!.pools[0]!;
    const poolHours = recomputed.get(`pool:${pool}:3600`)!;
    const shownPool = (
      await gql(
        yoga,
        `{ pool(address: "${pool}") { reserve0 { token { decimals } } reserve1 { token { decimals } } } }`,
      )
    ).body.data?.pool as {
      reserve0: { token: { decimals: number } };
      reserve1: { token: { decimals: number } };
    };
    const [d0, d1] = [shownPool.reserve0.token.decimals, shownPool.reserve1.token.decimals];
    for (const [interval, width] of [
      ["FOUR_HOURS", 14_400],
      ["TWELVE_HOURS", 43_200],
    ] as const) {
      const expectedToken = foldHours(tokenHours, width).map((c) =>
        shownCandle(c, (p) => formatDecimal(p, 18), 18, 18),
      );
      expect(await candles({ token: "BNB", interval, from: 0, first: 1000 }), interval).toEqual(
        expectedToken,
      );
      const expectedPool = foldHours(poolHours, width).map((c) =>
        shownCandle(c, (p) => formatPoolPrice(p, d0, d1), d0, d1),
      );
      expect(await candles({ pool, interval, from: 0, first: 1000 }), interval).toEqual(expectedPool);
      // Not vacuous: buckets fold several hours.
      expect(expectedToken.length).toBeLessThan(tokenHours.length);
      // A page of 3 is the first 3 buckets.
      expect(await candles({ token: "BNB", interval, from: 0, first: 3 })).toEqual(expectedToken.slice(0, 3));
    }
  });

  test("behavior: before counts back from an instant, and fill lists every bucket with the previous close carried", async () => {
    const trades = await listAllTrades(store, config.name, 0);
    const hours = recomputeCandles(trades).get(`token:${wrapped()}:3600`)!;
    const show = (c: Candle) => shownCandle(c, (p) => formatDecimal(p, 18), 18, 18);
    // before: the 30 hourly intervals before the 10th-newest bucket's start.
    const before = hours.at(-10)!.start;
    const from = before - 30 * 3_600;
    expect(await candles({ token: "BNB", interval: "HOUR", before, first: 30 })).toEqual(
      hours.filter((c) => c.start >= from && c.start < before).map(show),
    );
    // fill: every hour of the 30, the absent ones at the previous close with nothing traded.
    const filled = await candles({ token: "BNB", interval: "HOUR", before, first: 30, fill: true });
    let close = priceBefore(trades, { kind: "token", token: wrapped() as never }, from);
    const expected = [];
    for (let start = from; start < before; start += 3_600) {
      const candle = hours.find((c) => c.start === start);
      if (candle !== undefined) {
        expected.push(show(candle));
        close = candle.close ?? close;
      } else {
        expected.push(
          show({
            start,
            open: close,
            high: close,
            low: close,
            close,
            volume: 0n,
            quoteVolume: 0n,
            tradeCount: 0,
            volumeUsd: 0n,
          }),
        );
      }
    }
    expect(filled).toEqual(expected);
    expect(filled.filter((c) => c.tradeCount === 0).length).toBeGreaterThan(0);
    expect(filled.filter((c) => c.tradeCount > 0).length).toBeGreaterThan(0);
    // Filled 4-hour buckets up to now: consecutive starts, the last one holding now.
    const now = Math.floor(Date.now() / 1000);
    const wide = await candles({
      token: "BNB",
      interval: "FOUR_HOURS",
      from: now - 40 * 3_600,
      fill: true,
      first: 50,
    });
    expect(wide.map((c) => c.start)).toEqual(
      Array.from(
        { length: wide.length },
        (_, i) => Math.floor((now - 40 * 3_600) / 14_400) * 14_400 + i * 14_400,
      ),
    );
    expect(wide.at(-1)!.start).toBeGreaterThan(now - 14_400 - 2);
  });

  test("error: to with before, or from after before, is a 400 naming them", async () => {
    for (const variables of [
      { token: "BNB", interval: "HOUR", before: 2_000_000_000, to: 2_000_000_000 },
      { token: "BNB", interval: "HOUR", before: 1_000, from: 2_000 },
    ]) {
      const { body } = await gql(
        yoga,
        `query($to: Timestamp, $before: Timestamp, $from: Timestamp) {
        candles(token: "BNB", interval: HOUR, to: $to, before: $before, from: $from) { start } }`,
        variables,
      );
      expect(body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
      expect(body.errors?.[0]?.message).toMatch(/before/);
    }
  });
});
