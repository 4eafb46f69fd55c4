import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Address, Hash, Trade } from "../src/domain/types.js";
import { createPostgresStore } from "../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../src/store/types.js";

/** One line of the pool reads table. */
export interface PoolReadsRow {
  store: string;
  trades: number;
  "commit ms (all trades)": number;
  "page rows": number;
  "page ms (median)": number;
  "stats ms (median)": number;
}

const DAY = 86_400;
const PER_BLOCK = 20;
const POOLS = 1_000;
const E18 = 10n ** 18n;
const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const hash = (n: number): Hash => `0x${n.toString(16).padStart(64, "0")}`;

/**
 * `size` bsc trades over the last 7 days, 20 a block, each through one of 1,000 pools; the rare
 * pool is in one trade of 1,000 (0.1%), the others share the rest at random (seeded).
 */
function tradesOfBlock(
  block: number,
  blocks: number,
  size: number,
  now: number,
  random: () => number,
  withMarks: boolean,
) {
  return Array.from({ length: Math.min(PER_BLOCK, size - block * PER_BLOCK) }, (_, i): Trade => {
    const n = block * PER_BLOCK + i;
    const pool = n % 1_000 === 500 ? address(0xaaaa) : address(0xb000 + Math.floor(random() * (POOLS - 1)));
    const amountIn = BigInt(1 + Math.floor(random() * 1e9)) * 10n ** 9n;
    const amountOut = BigInt(1 + Math.floor(random() * 1e9)) * 10n ** 9n;
    return {
      network: "bsc",
      txHash: hash(n + 1),
      blockNumber: BigInt(block + 1),
      timestamp: now - 7 * DAY + Math.floor((block * 7 * DAY) / blocks),
      txIndex: i,
      logIndex: i,
      sender: address(0x5000 + Math.floor(random() * 1_000)),
      tokenIn: address(1),
      amountIn,
      tokenOut: address(2),
      amountOut,
      volumeUsd: BigInt(Math.floor(random() * 1e6)) * E18,
      tracked: true,
      pools: [pool],
      ...(withMarks
        ? {
            marks: {
              priceInUsd: E18,
              priceOutUsd: E18,
              native: undefined,
              hops: [{ zeroForOne: random() < 0.5, amountIn, amountOut }],
            },
          }
        : {}),
    };
  });
}

/** Commits the market in batches of 500 blocks (10,000 trades); answers the time spent in commitRange. */
async function fill(
  store: Store,
  size: number,
  now: number,
  withMarks: boolean,
): Promise<{ ms: number; head: bigint }> {
  let seed = 0x5eed;
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const blocks = Math.ceil(size / PER_BLOCK);
  let ms = 0;
  for (let from = 0; from < blocks; from += 500) {
    const to = Math.min(blocks, from + 500);
    const trades = Array.from({ length: to - from }, (_, k) =>
      tradesOfBlock(from + k, blocks, size, now, random, withMarks),
    ).flat();
    const last = BigInt(to);
    const started = performance.now();
    await store.commitRange("bsc", {
      checkpoint: { blockNumber: last, blockHash: hash(to) },
      blocks: [
        { number: last, hash: hash(to), parentHash: hash(to - 1), timestamp: trades.at(-1)!.timestamp },
      ],
      pairs: [],
      reserves: [],
      trades,
    });
    ms += performance.now() - started;
  }
  return { ms, head: BigInt(blocks) };
}

async function withPostgres(url: string, run: (sql: postgres.Sql) => Promise<unknown>): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await run(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** ANALYZE of every table of the schema (trade_pools only exists from migration 8 on). */
async function analyze(sql: postgres.Sql, schema: string): Promise<void> {
  const tables = await sql<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${schema}`;
  for (const { name } of tables) await sql.unsafe(`ANALYZE "${schema}"."${name}"`);
}

async function median(rounds: number, read: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(times.length / 2)]!.toFixed(2));
}

/**
 * A rarely traded pool's reads on a 7-day store of `size` trades: the first page of its trades
 * in the window (100, as historical_trades and poolSwaps ask) and its Pool.stats aggregate (four
 * windows, 5 minutes to 24 hours), on SQLite and, with `pgUrl`, PostgreSQL; and what committing
 * the trades cost. `BENCH_POOL_TRADES` sets the size, `BENCH_POOL_PG` the PostgreSQL URL,
 * `BENCH_POOL_MARKS=0` leaves the marks (and so the candles) out of the commit.
 */
export async function benchPoolReads(options: {
  size: number;
  pgUrl?: string;
  rounds?: number;
  /** false: trades without marks (no candles), so the commit time is the trade tables' own. */
  marks?: boolean;
}) {
  const rows: PoolReadsRow[] = [];
  const now = Math.floor(Date.now() / 1000);
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-pool-"));
  const stores: [string, () => Store][] = [
    ["sqlite", () => createSqliteStore({ path: join(dir, "s.sqlite") })],
  ];
  const schema = `bench_pool_${process.pid}`;
  if (options.pgUrl !== undefined) {
    stores.push(["postgres", () => createPostgresStore({ url: options.pgUrl!, schema })]);
  }
  const rare = address(0xaaaa);
  try {
    for (const [name, open] of stores) {
      const store = open();
      await store.migrate();
      const { ms, head } = await fill(store, options.size, now, options.marks ?? true);
      // Steady state: PostgreSQL's autovacuum has analyzed the tables by the time a store is this full.
      if (store.kind === "postgres") await withPostgres(options.pgUrl!, (sql) => analyze(sql, schema));
      const page = () =>
        store.listTradePage("bsc", { fromTimestamp: now - 7 * DAY, pool: rare, maxBlock: head, limit: 100 });
      const stats = () =>
        store.getTradeStats("bsc", {
          subject: { kind: "pool", pool: rare },
          withNative: false,
          fromTimestamps: [300, 3_600, 21_600, DAY].map((w) => now - w),
          toTimestamp: now,
          maxBlock: head,
        });
      const rounds = options.rounds ?? 15;
      rows.push({
        store: name,
        trades: options.size,
        "commit ms (all trades)": Math.round(ms),
        "page rows": (await page()).length,
        "page ms (median)": await median(rounds, page),
        "stats ms (median)": await median(rounds, stats),
      });
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (options.pgUrl !== undefined) {
      await withPostgres(options.pgUrl, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(
    await benchPoolReads({
      size: Number(process.env.BENCH_POOL_TRADES ?? 200_000),
      marks: process.env.BENCH_POOL_MARKS !== "0",
      ...(process.env.BENCH_POOL_PG === undefined ? {} : { pgUrl: process.env.BENCH_POOL_PG }),
    }),
  );
}
