import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Address, Hash, Trade } from "../src/domain/types.js";
import { buildCandleRows } from "../src/store/buildCandles.js";
import { createPostgresStore } from "../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import type { RangeBatch, Store } from "../src/store/types.js";

/**
 * `npx tsx bench/candles.ts`: what candles cost at BSC scale, on a synthetic market shaped like
 * PancakeSwap V2 (about 1M trades a day; one side a base token, the other drawn from 20,000 tokens
 * with a Zipf law; a quarter of the trades two hops through WBNB):
 * 1. candle rows a day per interval, from a whole day of trades folded in memory;
 * 2. commit time of the same trades with and without candle marks (trades without marks add no
 *    candles, so the difference is the candles' cost), on SQLite (file) and PostgreSQL when
 *    DATABASE_TEST_URL (default postgres://postgres@127.0.0.1:5432/test) answers; both at the head
 *    (small ranges) and in backfill (large ranges); then rollbacks, which rebuild the buckets they
 *    touch. BENCH_CANDLE_TRADES sets the trades committed (default 40,000);
 * 3. the 24-hour totals behind `tokens(orderBy: VOLUME_24H)` over the backfilled store: one
 *    sumCandles read by time over the hourly index (what the API does, for the hours that have
 *    not settled), one batched read of all 20,000 tokens' hourly candles by primary key, and one
 *    listCandles read per token (how the totals were read before).
 */
const TRADES_PER_DAY = 1_000_000;
const TOKENS = 20_000;
const E18 = 10n ** 18n;
const DAY = 86_400;
const T0 = 1_750_000_000 - (1_750_000_000 % DAY);
const BASES = ["WBNB", "USDT", "BUSD", "USDC"].map((_, i) => address(0xb000 + i));
const BASE_SHARE = [0.55, 0.3, 0.1, 0.05];

function address(n: number): Address {
  return `0x${n.toString(16).padStart(40, "0")}`;
}

function createRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A Zipf(1.1) sampler over 1..n by inverse CDF on a precomputed table. */
function createZipf(n: number, random: () => number) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 1; k <= n; k++) {
    sum += 1 / k ** 1.1;
    cdf[k - 1] = sum;
  }
  return () => {
    const u = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The i-th trade of the synthetic day: blocks of 0.75 s (timestamps whole seconds), ~12 trades a block. */
function createMarket(seed: number) {
  const random = createRandom(seed);
  const zipf = createZipf(TOKENS, random);
  const pool = (token: Address, base: Address) =>
    address(0x1_000_000 + Number.parseInt(token.slice(-8), 16) * 4 + BASES.indexOf(base));
  const amount = () => BigInt(1 + Math.floor(random() * 1_000)) * E18 + BigInt(Math.floor(random() * 1e9));
  const pickBase = () => {
    let u = random();
    for (const [i, share] of BASE_SHARE.entries()) {
      if (u < share) return BASES[i]!;
      u -= share;
    }
    return BASES[0]!;
  };
  return (i: number, network: "bsc" = "bsc"): Trade => {
    const secondsPerTrade = DAY / TRADES_PER_DAY;
    const timestamp = T0 + Math.floor(i * secondsPerTrade);
    const blockNumber = BigInt(Math.floor((i * secondsPerTrade) / 0.75));
    const token = address(0x10_000 + zipf());
    const base = pickBase();
    const twoHops = random() < 0.25 && base !== BASES[0];
    const sell = random() < 0.5;
    const [tokenIn, tokenOut] = sell ? [token, base] : [base, token];
    const amountIn = amount();
    const amountOut = amount();
    const pools = twoHops
      ? sell
        ? [pool(token, BASES[0]!), pool(base, BASES[0]!)]
        : [pool(base, BASES[0]!), pool(token, BASES[0]!)]
      : [pool(token, base)];
    const middle = amount();
    const hops = twoHops
      ? [
          { zeroForOne: sell, amountIn, amountOut: middle },
          { zeroForOne: !sell, amountIn: middle, amountOut },
        ]
      : [{ zeroForOne: sell, amountIn, amountOut }];
    const priced = random() < 0.8;
    return {
      network,
      txHash: `0x${i.toString(16).padStart(64, "0")}` as Hash,
      blockNumber,
      timestamp,
      // Positions only need to grow with i (the store orders by block, then transaction, then log).
      txIndex: i,
      logIndex: 0,
      sender: address(0x5_000_000 + Math.floor(random() * 200_000)),
      tokenIn,
      amountIn,
      tokenOut,
      amountOut,
      volumeUsd: amount(),
      tracked: true,
      pools,
      marks: {
        priceInUsd: priced ? amount() : undefined,
        priceOutUsd: amount(),
        native: undefined,
        hops,
      },
    };
  };
}

function rowsPerDay(): Record<string, number> {
  const trade = createMarket(1);
  // A day folded an hour at a time (buckets of 1 h and finer never span two hours); days counted whole.
  const counts: Record<string, number> = { "1m": 0, "5m": 0, "1h": 0, "1d": 0 };
  const days = new Set<string>();
  const perHour = TRADES_PER_DAY / 24;
  for (let hour = 0; hour < 24; hour++) {
    const trades = Array.from({ length: perHour }, (_, i) => trade(hour * perHour + i));
    for (const row of buildCandleRows(trades, [60, 300, 3_600]).values()) {
      counts[row.interval === 60 ? "1m" : row.interval === 300 ? "5m" : "1h"]! += 1;
    }
    for (const row of buildCandleRows(trades, [86_400]).values()) days.add(`${row.kind}:${row.subject}`);
  }
  counts["1d"] = days.size;
  return counts;
}

function batchOf(trades: Trade[], marks: boolean): RangeBatch {
  const last = trades.at(-1)!;
  return {
    checkpoint: { blockNumber: last.blockNumber, blockHash: `0x${"ab".repeat(32)}` as Hash },
    blocks: [],
    pairs: [],
    reserves: [],
    trades: marks ? trades : trades.map(({ marks: _, ...trade }) => trade),
  };
}

async function timeCommits(
  store: Store,
  trades: Trade[],
  perCommit: number,
  marks: boolean,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < trades.length; i += perCommit) {
    await store.commitRange("bsc", batchOf(trades.slice(i, i + perCommit), marks));
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_CANDLE_TRADES ?? 40_000);
  console.log(
    `candles: synthetic BSC day of ${TRADES_PER_DAY.toLocaleString("en")} trades, ${TOKENS.toLocaleString("en")} tokens`,
  );
  const started = performance.now();
  const rows = rowsPerDay();
  console.table(
    Object.entries(rows).map(([interval, n]) => ({
      interval,
      "rows a day": n,
      "per trade": (n / TRADES_PER_DAY).toFixed(3),
    })),
  );
  console.log(`(folded in memory in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

  const trade = createMarket(2);
  const trades = Array.from({ length: count }, (_, i) => trade(i));
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-candles-bench-"));
  const stores: { name: string; open: (tag: string) => Promise<Store> }[] = [
    {
      name: "sqlite (file)",
      open: async (tag) => {
        const store = createSqliteStore({ path: join(dir, `${tag}.sqlite`) });
        await store.migrate();
        return store;
      },
    },
  ];
  const url = process.env.DATABASE_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const schemas: string[] = [];
  stores.push({
    name: "postgres",
    open: async (tag) => {
      const schema = `bench_candles_${tag}_${process.pid}`;
      schemas.push(schema);
      const store = createPostgresStore({ url, schema });
      await store.migrate();
      return store;
    },
  });
  const table: Record<string, string | number>[] = [];
  const totalsTable: Record<string, string | number>[] = [];
  try {
    for (const { name, open } of stores) {
      for (const [mode, perCommit] of [
        ["head (16 trades a commit)", 16],
        ["backfill (2,000 a commit)", 2_000],
      ] as const) {
        let plain: Store | undefined;
        let marked: Store | undefined;
        try {
          plain = await open(`plain${perCommit}`);
          marked = await open(`marks${perCommit}`);
        } catch (error) {
          console.log(`${name}: skipped (${(error as Error).message})`);
          await plain?.close();
          break;
        }
        const without = await timeCommits(plain, trades, perCommit, false);
        const withCandles = await timeCommits(marked, trades, perCommit, true);
        // Reorgs at the head: the last 4 blocks (about 36 trades at BSC's rate), then 1,000 trades.
        const rollbackMs: string[] = [];
        for (const back of [37, 1_000]) {
          const ancestor = trades[trades.length - back - 1]!.blockNumber;
          const started = performance.now();
          await marked.rollback("bsc", { blockNumber: ancestor, blockHash: `0x${"cd".repeat(32)}` as Hash });
          rollbackMs.push((performance.now() - started).toFixed(1));
          await marked.commitRange(
            "bsc",
            batchOf(
              trades.filter((t) => t.blockNumber > ancestor),
              true,
            ),
          );
        }
        if (perCommit === 2_000) totalsTable.push({ store: name, ...(await timeDayTotals(marked)) });
        table.push({
          store: name,
          mode,
          "trades/s without candles": Math.round(count / (without / 1000)),
          "trades/s with candles": Math.round(count / (withCandles / 1000)),
          "ms per commit without": (without / (count / perCommit)).toFixed(2),
          "ms per commit with": (withCandles / (count / perCommit)).toFixed(2),
          overhead: `${(((withCandles - without) / without) * 100).toFixed(0)}%`,
          "rollback ms (36 / 1,000 trades)": rollbackMs.join(" / "),
        });
        await plain.close();
        await marked.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (schemas.length > 0) {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      for (const schema of schemas)
        await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await sql.end({ timeout: 5 });
    }
  }
  console.log(`commits of ${count.toLocaleString("en")} trades:`);
  console.table(table);
  console.log("24-hour totals of every token (what tokens ordered by volume reads):");
  console.table(totalsTable);
}

/** One batched sumCandles of every token's hourly candles against a listCandles read per token. */
async function timeDayTotals(store: Store): Promise<Record<string, string | number>> {
  const tokens = Array.from({ length: TOKENS }, (_, k) => address(0x10_000 + k));
  const window = { interval: 3_600 as const, fromTimestamp: T0, toTimestamp: T0 + DAY };
  let started = performance.now();
  const totals = await store.sumCandles("bsc", { kind: "token", subjects: tokens, ...window });
  const batched = performance.now() - started;
  started = performance.now();
  const byTime = await store.sumCandles("bsc", { kind: "token", ...window });
  const timeRead = performance.now() - started;
  // By time also holds the base tokens' series (not among the 20,000): the rest must agree.
  for (const [token, total] of totals) {
    if (byTime.get(token)?.tradeCount !== total.tradeCount)
      throw new Error(`the two reads disagree on ${token}`);
  }
  started = performance.now();
  let rows = 0;
  for (const token of tokens) {
    rows += (
      await store.listCandles("bsc", {
        subject: { kind: "token", token },
        interval: 3_600,
        fromTimestamp: T0,
        limit: 25,
      })
    ).length;
  }
  const perToken = performance.now() - started;
  return {
    tokens: tokens.length,
    "with trades": totals.size,
    "hourly rows": rows,
    "one read by time (hourly index) ms": timeRead.toFixed(0),
    "one batched read ms": batched.toFixed(0),
    "a read per token ms": perToken.toFixed(0),
    "batched vs per token": (batched / perToken).toFixed(2),
  };
}

await main();
