import { expect, test } from "vitest";
import type { PriceInstant } from "../../src/domain/tradeStats.js";
import type { Address, Trade } from "../../src/domain/types.js";
import { POOL_LED_MAX } from "../../src/store/buildPoolLastPricesSql.js";
import type { SqlDialect } from "../../src/store/buildTradePageSql.js";
import { buildTradeReads, type ReadPlan } from "../../src/store/buildTradeReads.js";
import type { Store } from "../../src/store/types.js";
import { candleTime, candleTrade, createRandom } from "../support/candleFixtures.js";
import { describeStores } from "../support/storeBackends.js";
import { addr, makeBatch, POOL_A, POOL_B, POOL_C, range } from "../support/storeFixtures.js";

// Store.getPoolLastPrices is Store.getLastPrice of each pool (withNative false) at each instant, in
// a fixed number of statements: held here to the per-pool read for every pool and instant, both
// ways it reads the minutes' trades, and to its query plans.

const MINUTE = 60;
/** A pool that never traded. */
const IDLE = addr(0xd4);
const POOLS = [POOL_A, POOL_B, POOL_C, IDLE];
/** Pools of no trade that push a list past POOL_LED_MAX: the network's minutes are read then. */
const PADDING = Array.from({ length: POOL_LED_MAX + 1 }, (_, i) => addr(0xd000 + i));
/** The minute of the three blocks (201..203) that trade within one minute. */
const BUSY_MINUTE = Math.floor(candleTime(201n) / MINUTE) * MINUTE;

/**
 * The candle tests' 300 trades (blocks 0..198, ten minutes apart, with unpriced and unmarked ones)
 * and nine more in blocks 201..203, all within one minute.
 */
function tradesOf(): Trade[] {
  const random = createRandom(23);
  const trades = Array.from({ length: 300 }, (_, i) => candleTrade(i, random));
  const busy = Array.from({ length: 9 }, (_, k) => {
    const blockNumber = 201n + BigInt(Math.floor(k / 3));
    return candleTrade(300 + k, random, {
      blockNumber,
      timestamp: BUSY_MINUTE + 5 + Number(blockNumber - 201n) * 15,
    });
  });
  return [...trades, ...busy];
}

/** Instants around the trades: inside their minute (after some), at it, at the minute's start, minutes later; maxBlock at, below and above the block. */
function instantsOf(trades: readonly Trade[]): PriceInstant[] {
  const out: PriceInstant[] = [];
  const blocks = [...new Set(trades.map((t) => t.blockNumber))].filter((b, i) => i % 4 === 0 || b > 200n);
  for (const block of blocks) {
    const t = trades.find((trade) => trade.blockNumber === block)!.timestamp;
    const minute = t - (t % MINUTE);
    for (const beforeTimestamp of [t, t + 1, t + 16, minute, minute + MINUTE, t + 300]) {
      for (const maxBlock of [block - 1n, block, 10n ** 9n]) {
        if (maxBlock >= 0n) out.push({ beforeTimestamp, maxBlock });
      }
    }
  }
  return out;
}

/** The per-pool read: getLastPrice of each pool at each instant. */
async function perPool(store: Store, pools: readonly Address[], instants: readonly PriceInstant[]) {
  const out = new Map<Address, (bigint | undefined)[]>();
  for (const pool of pools) {
    const prices: (bigint | undefined)[] = [];
    for (const instant of instants) {
      prices.push(
        await store.getLastPrice("bsc", { subject: { kind: "pool", pool }, withNative: false, ...instant }),
      );
    }
    out.set(pool, prices);
  }
  return out;
}

/** The grouped read, `size` instants at a time (the listing asks three), of `pools`. */
async function grouped(
  store: Store,
  pools: readonly Address[],
  instants: readonly PriceInstant[],
  size: number,
) {
  const unique = [...new Set(pools)];
  const out = new Map<Address, (bigint | undefined)[]>(unique.map((pool) => [pool, []]));
  for (let i = 0; i < instants.length; i += size) {
    const answer = await store.getPoolLastPrices("bsc", { pools, instants: instants.slice(i, i + size) });
    expect([...answer.keys()].sort()).toEqual(unique.sort());
    for (const pool of unique) out.get(pool)!.push(...answer.get(pool)!);
  }
  return out;
}

/** Rows for a statement of the read's plan run without a database: every span's block range is 1..last, nothing else. */
function probed(text: string, last: bigint): unknown[] {
  if (!text.includes("first_block_0")) return [];
  const row: Record<string, bigint> = {};
  for (let i = 0; text.includes(`first_block_${i}`); i++) {
    row[`first_block_${i}`] = 1n;
    row[`last_block_${i}`] = last;
  }
  return [row];
}

describeStores("store pool last prices", ({ backend, fresh, open }) => {
  test("behavior: getPoolLastPrices answers getLastPrice of every pool at every instant, pool-led and over the network's minutes", async () => {
    const store = await fresh();
    const trades = tradesOf();
    await store.commitRange(
      "bsc",
      makeBatch(
        trades.filter((t) => t.blockNumber <= 100n),
        range(0n, 100n),
      ),
    );
    await store.commitRange(
      "bsc",
      makeBatch(
        trades.filter((t) => t.blockNumber > 100n),
        range(101n, 203n),
      ),
    );
    const instants = instantsOf(trades);
    const expected = await perPool(store, POOLS, instants);

    // What the instants cover: a minute's trades decide (the answer differs from the one at the
    // minute's start), maxBlock below a minute's trades changes the answer, the idle pool has none.
    const at = (pool: Address, beforeTimestamp: number, maxBlock: bigint) =>
      expected.get(pool)![
        instants.findIndex((i) => i.beforeTimestamp === beforeTimestamp && i.maxBlock === maxBlock)
      ];
    const decidedByTrades = instants.filter((instant, i) =>
      POOLS.some((pool) => {
        const start = instant.beforeTimestamp - (instant.beforeTimestamp % MINUTE);
        return expected.get(pool)![i] !== at(pool, start, instant.maxBlock);
      }),
    );
    expect(decidedByTrades.length).toBeGreaterThan(20);
    // 16 s after block 203's trades, whose minute also holds blocks 201 and 202's.
    const late = BUSY_MINUTE + 5 + 30 + 16;
    expect(POOLS.some((pool) => at(pool, late, 202n) !== at(pool, late, 203n))).toBe(true);
    expect(expected.get(IDLE)!.every((price) => price === undefined)).toBe(true);
    expect(expected.get(POOL_A)!.filter((price) => price !== undefined).length).toBeGreaterThan(100);

    // Pool-led (the four pools, one listed twice), then over the network's minutes (past POOL_LED_MAX).
    expect(await grouped(store, [...POOLS, POOL_A], instants, 3)).toEqual(expected);
    expect(await grouped(store, POOLS, instants, 8)).toEqual(expected);
    const padded = await grouped(store, [...PADDING, ...POOLS], instants, 3);
    for (const pool of POOLS) expect(padded.get(pool), pool).toEqual(expected.get(pool));
    for (const pool of PADDING) expect(padded.get(pool)!.every((price) => price === undefined)).toBe(true);

    // No pool: no read.
    expect(await store.getPoolLastPrices("bsc", { pools: [], instants: instants.slice(0, 1) })).toEqual(
      new Map(),
    );
  });

  test("error: getPoolLastPrices refuses no instant, more than 8 and a negative instant", async () => {
    const store = await fresh();
    const instant = { beforeTimestamp: 100, maxBlock: 1n };
    for (const instants of [[], Array(9).fill(instant), [{ beforeTimestamp: -1, maxBlock: 1n }]]) {
      await expect(store.getPoolLastPrices("bsc", { pools: POOLS, instants })).rejects.toThrow(
        "Invalid last price instants.",
      );
    }
  });

  test.skipIf(!backend.shared)(
    "behavior: the grouped read seeks each pool's trade_pools rows or the minutes' timestamp range, and each pool's candles back from the minute; never a scan",
    async () => {
      const db = backend.newDatabase();
      const store = open(db);
      await store.migrate();
      const random = createRandom(5);
      // 3,000 trades over 200 blocks (a day and more): every pool has many minute candles.
      const trades = Array.from({ length: 3_000 }, (_, i) => candleTrade(i, random));
      const last = trades.at(-1)!.blockNumber;
      await store.commitRange("bsc", makeBatch(trades, range(0n, last)));
      // PostgreSQL's autovacuum keeps statistics; the SQLite store never runs ANALYZE.
      if (store.kind === "postgres") await db.query!("ANALYZE trades, trade_pools, candles");
      const statements: { text: string; params: unknown[] }[] = [];
      const dialect: SqlDialect = store.kind;
      // The statements the read runs, taken from its plan with rows of their shape.
      // The read run statement by statement on the database, each statement kept.
      const reads = buildTradeReads(dialect, async <T>(plan: () => ReadPlan<T>) => {
        const run = plan();
        for (let next = run.next(); ; ) {
          if (next.done === true) return next.value;
          statements.push(next.value);
          next = run.next(await db.query!(next.value.text, next.value.params));
        }
      });
      const t = trades.at(-1)!.timestamp;
      const instants = [
        { beforeTimestamp: t + 1, maxBlock: last },
        { beforeTimestamp: t - 86_400 + 1, maxBlock: last },
      ];
      await reads.getPoolLastPrices("bsc", { pools: POOLS, instants });
      await reads.getPoolLastPrices("bsc", { pools: [...PADDING, ...POOLS], instants });
      const [, poolLed, closes, byTime] = statements;
      const plan = async ({ text, params }: { text: string; params: unknown[] }) => {
        if (dialect === "sqlite") {
          const rows = await db.query!(`EXPLAIN QUERY PLAN ${text}`, params);
          return rows.map((row) => String(row.detail)).join("\n");
        }
        const rows = await db.query!(`EXPLAIN ${text}`, params);
        return rows.map((row) => String(row["QUERY PLAN"])).join("\n");
      };
      const plans = [await plan(poolLed!), await plan(closes!), await plan(byTime!)];
      const [poolLedPlan, closesPlan, byTimePlan] = plans;
      if (dialect === "sqlite") {
        expect(poolLedPlan).toMatch(
          /SEARCH tp USING PRIMARY KEY \(network=\? AND pool=\? AND block_number>\? AND block_number<\?\)/,
        );
        expect(poolLedPlan).toMatch(/SEARCH trades USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(byTimePlan).toMatch(
          /SEARCH trades USING INDEX trades_network_timestamp \(network=\? AND timestamp>\? AND timestamp<\?\)/,
        );
        expect(closesPlan).toMatch(
          /SEARCH candles USING PRIMARY KEY \(network=\? AND kind=\? AND subject=\? AND width=\? AND start<\?\)/,
        );
        for (const text of [poolLedPlan, closesPlan, byTimePlan]) {
          expect(text).not.toMatch(/SCAN (tp|trades|candles)|TEMP B-TREE/);
        }
      } else {
        expect(poolLedPlan).toMatch(/Index (Only )?Scan using trade_pools_pkey on trade_pools tp/);
        expect(poolLedPlan).toMatch(/Index Scan using trades_network_seq on trades/);
        expect(byTimePlan).toMatch(/Index Scan using trades_network_timestamp on trades/);
        expect(closesPlan).toMatch(/Index Scan Backward using candles_pkey on candles/);
        for (const text of [poolLedPlan, closesPlan, byTimePlan]) expect(text).not.toMatch(/Seq Scan|Sort/);
      }
    },
  );
});

test("behavior: getPoolLastPrices runs a fixed number of statements whatever the number of pools", async () => {
  const counts: number[] = [];
  const reads = buildTradeReads("sqlite", async <T>(plan: () => ReadPlan<T>) => {
    const run = plan();
    for (let next = run.next(), count = 0; ; count++) {
      if (next.done === true) {
        counts.push(count);
        return next.value;
      }
      next = run.next(probed(next.value.text, 10n));
    }
  });
  const instants = [
    { beforeTimestamp: 1_700_000_030, maxBlock: 10n },
    { beforeTimestamp: 1_700_086_430, maxBlock: 10n },
  ];
  for (const size of [1, POOL_LED_MAX, POOL_LED_MAX + 1, 10_000]) {
    const pools = Array.from({ length: size }, (_, i) => addr(0xa000 + i));
    await reads.getPoolLastPrices("bsc", { pools, instants });
  }
  // Pool-led: the spans' block ranges, their trades, the closes; past POOL_LED_MAX: no probe.
  expect(counts).toEqual([3, 3, 2, 2]);
});
