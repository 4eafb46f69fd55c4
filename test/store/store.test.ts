import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type {
  Address,
  Hash,
  NetworkName,
  PairReserves,
  TokenRef,
  Trade,
  TradeMarks,
} from "../../src/domain/types.js";
import { createPostgresStore, writerLockKey } from "../../src/store/createPostgresStore.js";
import { createSqliteStore } from "../../src/store/createSqliteStore.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import type { DayAggregate, RangeBatch, Store, StoredTrade } from "../../src/store/types.js";
import {
  type CandleSeries,
  expectCandlesEqualRecompute,
  recomputeCandles,
} from "../support/recomputeCandles.js";
import { PG_SHOWN, PG_URL, pgAvailable, pgReachable } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";

const PG_SKIP = !pgAvailable;

/** One database the suite can open stores on (two stores on one database for the concurrency checks). */
interface TestDatabase {
  open(): Store;
  /**
   * Writes a version-1 store (migration 1 only) holding these trades, as an older release left it;
   * undefined where nothing outlives the store (SQLite in memory).
   */
  seedV1?(trades: Trade[]): Promise<void>;
  /** Writes a version-4 store (migrations 1 to 4) holding these candle rows, as release 4 left it. */
  seedV4Candles?(rows: V4Candle[]): Promise<void>;
}

/** A candles row of schema version 4 (no volume_usd). */
interface V4Candle {
  kind: 0 | 1;
  subject: string;
  width: number;
  start: number;
  volume: bigint;
  quoteVolume: bigint;
}
const V4_CANDLE_COLUMNS = "network, kind, subject, width, start, volume, quote_volume, trade_count";
const v4Values = (c: V4Candle) =>
  ["bsc", c.kind, c.subject, c.width, c.start, c.volume.toString(), c.quoteVolume.toString(), 1] as const;

const V1_TRADE_COLUMNS =
  "network, tx_hash, block_number, timestamp, tx_index, sender, token_in, amount_in, token_out, amount_out, volume_usd, tracked, pools";
const v1Values = (t: Trade) =>
  [
    t.network,
    t.txHash,
    t.blockNumber,
    t.timestamp,
    t.txIndex,
    t.sender,
    t.tokenIn,
    t.amountIn.toString(),
    t.tokenOut,
    t.amountOut.toString(),
    t.volumeUsd.toString(),
    t.tracked,
    t.pools.join(","),
  ] as const;

interface Backend {
  name: string;
  /** Two stores opened on one TestDatabase share their data. */
  shared: boolean;
  skip: boolean;
  setup(): Promise<void>;
  newDatabase(): TestDatabase;
  teardown(): Promise<void>;
}

function sqliteMemoryBackend(): Backend {
  return {
    name: "sqlite :memory:",
    shared: false,
    skip: false,
    async setup() {},
    newDatabase: () => ({ open: () => createSqliteStore({ path: ":memory:" }) }),
    async teardown() {},
  };
}

function sqliteFileBackend(): Backend {
  let dir = "";
  let count = 0;
  return {
    name: "sqlite file",
    shared: true,
    skip: false,
    async setup() {
      dir = mkdtempSync(join(tmpdir(), "swapgraph-store-"));
    },
    newDatabase() {
      // A missing parent directory checks that the store creates it.
      const path = join(dir, `db${++count}`, "store.sqlite");
      return {
        open: () => createSqliteStore({ path }),
        async seedV1(trades) {
          mkdirSync(dirname(path), { recursive: true });
          const db = new Database(path);
          db.exec(`CREATE TABLE schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
          db.exec(MIGRATIONS[0]!.sqlite);
          db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 0)").run();
          const insert = db.prepare(`INSERT INTO trades (${V1_TRADE_COLUMNS}) VALUES (${"?, ".repeat(12)}?)`);
          for (const t of trades) {
            const values = v1Values(t);
            insert.run(...values.slice(0, 11), values[11] ? 1 : 0, values[12]);
          }
          db.close();
        },
        async seedV4Candles(rows) {
          mkdirSync(dirname(path), { recursive: true });
          const db = new Database(path);
          db.exec(`CREATE TABLE schema_migrations (
            version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
          for (const migration of MIGRATIONS.slice(0, 4)) {
            db.exec(migration.sqlite);
            migration.sqliteAfter?.(db);
            db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(
              migration.version,
              migration.name,
            );
          }
          const insert = db.prepare(
            `INSERT INTO candles (${V4_CANDLE_COLUMNS}) VALUES (${"?, ".repeat(7)}?)`,
          );
          for (const row of rows) insert.run(...v4Values(row));
          db.close();
        },
      };
    },
    async teardown() {
      if (dir !== "") rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgresBackend(): Backend {
  const run = randomBytes(4).toString("hex");
  const schemas: string[] = [];
  return {
    name: "postgres",
    shared: true,
    skip: PG_SKIP,
    async setup() {
      if (!pgReachable) throw new Error(`PostgreSQL is required (CI=true) but unreachable at ${PG_SHOWN}`);
    },
    newDatabase() {
      const schema = `swapgraph_test_${run}_${schemas.length + 1}`;
      schemas.push(schema);
      return {
        open: () => createPostgresStore({ url: PG_URL, schema, max: 4 }),
        async seedV1(trades) {
          const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
          try {
            await sql.unsafe(`CREATE SCHEMA "${schema}"`);
            await sql.unsafe(`SET search_path TO "${schema}"`);
            await sql.unsafe(`CREATE TABLE schema_migrations (
              version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
            await sql.unsafe(MIGRATIONS[0]!.postgres);
            await sql.unsafe("INSERT INTO schema_migrations (version, name) VALUES (1, 'initial')");
            for (const t of trades) {
              const values = v1Values(t).map((v) => (typeof v === "bigint" ? v.toString() : v));
              await sql.unsafe(
                `INSERT INTO trades (${V1_TRADE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
                values,
              );
            }
          } finally {
            await sql.end({ timeout: 5 });
          }
        },
        async seedV4Candles(rows) {
          const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
          try {
            await sql.unsafe(`CREATE SCHEMA "${schema}"`);
            await sql.unsafe(`SET search_path TO "${schema}"`);
            await sql.unsafe(`CREATE TABLE schema_migrations (
              version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
            for (const migration of MIGRATIONS.slice(0, 4)) {
              await sql.unsafe(migration.postgres);
              await sql.unsafe("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
                migration.version,
                migration.name,
              ]);
            }
            for (const row of rows) {
              await sql.unsafe(
                `INSERT INTO candles (${V4_CANDLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                [...v4Values(row)],
              );
            }
          } finally {
            await sql.end({ timeout: 5 });
          }
        },
      };
    },
    async teardown() {
      if (schemas.length === 0 || !pgReachable) return;
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      try {
        for (const schema of schemas) await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

const addr = (n: number | bigint): Address => `0x${n.toString(16).padStart(40, "0")}`;
const hash = (n: number | bigint): Hash => `0x${n.toString(16).padStart(64, "0")}`;

const POOL_A = addr(0xa1);
const POOL_B = addr(0xb2);
const POOL_C = addr(0xc3);
const DAY = 86_400;
const T0 = 1_700_000_000;

function makeTrade(i: number, blockNumber: bigint, overrides: Partial<Trade> = {}): Trade {
  return {
    network: "bsc",
    txHash: hash(0x1000 + i),
    blockNumber,
    timestamp: T0 + Number(blockNumber) * 3,
    txIndex: i % 7,
    logIndex: i,
    sender: addr(0x5000 + i),
    tokenIn: addr(0x70),
    amountIn: 10n ** 18n * BigInt(i + 1),
    tokenOut: addr(0x71),
    amountOut: 2n * 10n ** 6n * BigInt(i + 1),
    volumeUsd: 3n * 10n ** 18n * BigInt(i + 1),
    tracked: true,
    pools: [POOL_A],
    ...overrides,
  };
}

function makeBatch(trades: Trade[], blockNumbers: bigint[], reserves: PairReserves[] = []): RangeBatch {
  const last = blockNumbers[blockNumbers.length - 1] ?? 0n;
  return {
    checkpoint: { blockNumber: last, blockHash: hash(last) },
    blocks: blockNumbers.map((n) => ({
      number: n,
      hash: hash(n),
      parentHash: hash(n - 1n),
      timestamp: T0 + Number(n) * 3,
    })),
    pairs: [
      {
        address: POOL_A,
        dex: "uniswap-v2",
        factory: addr(0xf1),
        token0: addr(0x70),
        token1: addr(0x71),
        feeBps: 30,
      },
    ],
    reserves,
    trades,
  };
}

const range = (from: bigint, to: bigint): bigint[] => {
  const out: bigint[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
};

const withoutSeq = (trades: StoredTrade[]): Trade[] => trades.map(({ seq: _seq, ...trade }) => trade);

const HOUR = 3_600;
/** Midnight UTC of T0's day: blocks of the day-aggregate tests are one hour apart from it. */
const D0 = Math.floor(T0 / DAY) * DAY;
const DAY0 = D0 / DAY;
const ALL_DAYS = [0, 10 ** 12] as const;
const TRADERS = [addr(0x5a1), addr(0x5a2), addr(0x5a3), addr(0x5a4)];

/**
 * Trade i of the day-aggregate tests: two per block, blocks one hour apart (24 a day), four
 * senders, every fifth untracked, volumes far past 2^53 with low digits a double would lose.
 */
function dayTrade(i: number, overrides: Partial<Trade> = {}): Trade {
  const blockNumber = overrides.blockNumber ?? BigInt(Math.floor(i / 2));
  const tracked = i % 5 !== 0;
  return makeTrade(i, blockNumber, {
    timestamp: D0 + Number(blockNumber) * HOUR,
    txIndex: i % 2,
    sender: TRADERS[(i * 7) % TRADERS.length]!,
    volumeUsd: tracked ? 2n ** 200n + BigInt(i) * (10n ** 18n + 1n) : 0n,
    tracked,
    ...overrides,
  });
}

/** The day aggregates recomputed from a list of trades, ascending by day (what the store must hold). */
function recomputeDays(trades: readonly Trade[]): DayAggregate[] {
  const days = new Map<number, DayAggregate & { senders: Set<string> }>();
  for (const t of trades) {
    const day = Math.floor(t.timestamp / DAY);
    let d = days.get(day);
    if (d === undefined) {
      d = { day, volumeUsd: 0n, tradeCount: 0, untrackedCount: 0, traderCount: 0, senders: new Set() };
      days.set(day, d);
    }
    d.volumeUsd += t.volumeUsd;
    d.tradeCount += 1;
    if (!t.tracked) d.untrackedCount += 1;
    d.senders.add(t.sender);
  }
  return [...days.values()]
    .sort((a, b) => a.day - b.day)
    .map(({ senders, ...d }) => ({ ...d, traderCount: senders.size }));
}

const byDay = (days: DayAggregate[]): DayAggregate[] => [...days].sort((a, b) => a.day - b.day);

/** Reads every page of a query, checking each full page has exactly `limit` trades. */
async function readAllPages(store: Store, network: NetworkName, query: TradePageQuery): Promise<Trade[]> {
  const out: Trade[] = [];
  let after = query.after;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await store.listTradePage(network, after === undefined ? query : { ...query, after });
    expect(page.length).toBeLessThanOrEqual(query.limit);
    out.push(...page);
    if (page.length < query.limit) return out;
    const last = page[page.length - 1]!;
    after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
  }
  throw new Error("paging did not end");
}

// Candle tests: tokens A, B, C and the wrapped native W; pools A/B (POOL_A), B/W (POOL_B), W/C (POOL_C).
const TOKEN_A = addr(0x70);
const TOKEN_B = addr(0x71);
const WRAPPED = addr(0x72);
const TOKEN_C = addr(0x73);
const E18 = 10n ** 18n;
/** Blocks about ten minutes apart, with a jitter that moves some across minute boundaries. */
const candleTime = (block: bigint) => D0 + Number(block) * 600 + Number(block % 7n) * 13;

/** A seeded generator (mulberry32): the candle tests' trades are the same on every run. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  // Amounts around 1..1000 whole tokens with low digits a double would lose.
  const amount = () => BigInt(1 + int(1000)) * E18 + BigInt(int(1_000_000_007));
  const price = () => (int(5) === 0 ? undefined : BigInt(1 + int(5000)) * 10n ** 16n + BigInt(int(997)));
  return { next, int, amount, price };
}

/**
 * Candle trade i: every other block holds three trades, listed in reverse transaction order.
 * Shapes: plain swaps both ways, native in, a multi-hop through a fee-on-transfer token (native
 * out now and then), a native-to-wrapped round trip through one pool twice, a dust swap that
 * sent out nothing (no price), and a trade stored before candles existed (no marks).
 */
function candleTrade(
  i: number,
  random: ReturnType<typeof createRandom>,
  overrides: Partial<Trade> = {},
): Trade {
  const blockNumber = overrides.blockNumber ?? BigInt(Math.floor(i / 3) * 2);
  const txIndex = 2 - (i % 3);
  const base = makeTrade(i, blockNumber, {
    timestamp: candleTime(blockNumber),
    txIndex,
    logIndex: txIndex * 4,
    sender: TRADERS[i % TRADERS.length]!,
  });
  const amountIn = random.amount();
  const amountOut = random.amount();
  const volumeUsd = random.amount();
  const marks = (fields: Partial<TradeMarks>): TradeMarks => ({
    priceInUsd: random.price(),
    priceOutUsd: random.price(),
    native: undefined,
    hops: [{ zeroForOne: true, amountIn, amountOut }],
    ...fields,
  });
  const shape = random.int(7);
  let trade: Trade;
  switch (shape) {
    case 0:
    case 1: {
      const zeroForOne = shape === 0;
      trade = {
        ...base,
        tokenIn: zeroForOne ? TOKEN_A : TOKEN_B,
        tokenOut: zeroForOne ? TOKEN_B : TOKEN_A,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_A],
        marks: marks({ hops: [{ zeroForOne, amountIn, amountOut }] }),
      };
      break;
    }
    case 2:
      trade = {
        ...base,
        tokenIn: "",
        tokenOut: TOKEN_C,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_C],
        marks: marks({ native: WRAPPED }),
      };
      break;
    case 3: {
      const middle = random.amount();
      const taxed = middle - middle / 50n;
      const nativeOut = random.int(2) === 0;
      trade = {
        ...base,
        tokenIn: TOKEN_A,
        tokenOut: nativeOut ? "" : WRAPPED,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_A, POOL_B],
        marks: marks({
          native: nativeOut ? WRAPPED : undefined,
          hops: [
            { zeroForOne: true, amountIn, amountOut: middle },
            { zeroForOne: true, amountIn: taxed, amountOut },
          ],
        }),
      };
      break;
    }
    case 4: {
      const middle = random.amount();
      trade = {
        ...base,
        tokenIn: "",
        tokenOut: WRAPPED,
        amountIn,
        amountOut,
        volumeUsd,
        pools: [POOL_C, POOL_C],
        marks: marks({
          native: WRAPPED,
          hops: [
            { zeroForOne: true, amountIn, amountOut: middle },
            { zeroForOne: false, amountIn: middle, amountOut },
          ],
        }),
      };
      break;
    }
    case 5:
      trade = {
        ...base,
        tokenIn: TOKEN_A,
        tokenOut: TOKEN_B,
        amountIn: 123n,
        amountOut: 0n,
        volumeUsd: 0n,
        tracked: false,
        pools: [POOL_A],
        marks: {
          priceInUsd: undefined,
          priceOutUsd: undefined,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn: 123n, amountOut: 0n }],
        },
      };
      break;
    default:
      trade = { ...base, tokenIn: TOKEN_B, tokenOut: TOKEN_C, pools: [POOL_B] };
  }
  return { ...trade, ...overrides };
}

/** Every series the candle tests can touch, so rows left behind by a bug are found too. */
const CANDLE_SERIES: CandleSeries[] = [TOKEN_A, TOKEN_B, WRAPPED, TOKEN_C, POOL_A, POOL_B, POOL_C].flatMap(
  (address, i) =>
    ([60, 300, 3_600, 86_400] as const).map((interval) => ({
      subject: i < 4 ? { kind: "token" as const, token: address } : { kind: "pool" as const, pool: address },
      interval,
    })),
);

describe.each([sqliteMemoryBackend(), sqliteFileBackend(), postgresBackend()])("store: $name", (backend) => {
  if (backend.skip) {
    test.skip(`PostgreSQL unreachable at ${PG_SHOWN} (set CI=true to make this a failure)`, () => {});
    return;
  }

  const opened: Store[] = [];
  const open = (db: TestDatabase): Store => {
    const store = db.open();
    opened.push(store);
    return store;
  };
  /** A migrated store on a new, empty database. */
  const fresh = async (): Promise<Store> => {
    const store = open(backend.newDatabase());
    await store.migrate();
    return store;
  };

  beforeAll(async () => {
    await backend.setup();
  });

  afterAll(async () => {
    for (const store of opened) await store.close();
    await backend.teardown();
  });

  test("behavior: kind names the backend", async () => {
    const store = await fresh();
    expect(store.kind).toBe(backend.name.startsWith("sqlite") ? "sqlite" : "postgres");
  });

  test("behavior: migrate twice is a no-op and keeps the data", async () => {
    const db = backend.newDatabase();
    const store = open(db);
    await store.migrate();
    await store.commitRange("bsc", makeBatch([makeTrade(0, 10n)], [10n]));
    await store.migrate();
    expect(await store.listTrades("bsc", 0)).toHaveLength(1);
    if (backend.shared) {
      // A second process opening the same database finds everything applied.
      const again = open(db);
      await again.migrate();
      expect(await again.getCheckpoint("bsc")).toEqual({ blockNumber: 10n, blockHash: hash(10n) });
    }
  });

  test.skipIf(!backend.shared)(
    "behavior: two stores migrating one database at once both succeed",
    async () => {
      const db = backend.newDatabase();
      const [a, b] = [open(db), open(db)];
      await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
      await a.commitRange("bsc", makeBatch([makeTrade(0, 5n)], [5n]));
      expect(await b.listTrades("bsc", 0)).toHaveLength(1);
    },
  );

  test("behavior: commitRange then reads back every field exactly", async () => {
    const store = await fresh();
    const max256 = 2n ** 256n - 1n;
    const bigBlock = 2n ** 60n + 7n;
    const trades: Trade[] = [
      makeTrade(0, bigBlock, {
        timestamp: 1_900_000_000,
        txIndex: 3,
        tokenIn: "",
        amountIn: 2n ** 255n,
        amountOut: max256,
        volumeUsd: max256,
        pools: [POOL_C, POOL_A, POOL_B],
      }),
      makeTrade(1, bigBlock + 1n, {
        tokenOut: "",
        amountIn: 1n,
        amountOut: 0n,
        volumeUsd: 0n,
        tracked: false,
        pools: [],
      }),
    ];
    const batch: RangeBatch = {
      checkpoint: { blockNumber: bigBlock + 1n, blockHash: hash(0xbeef) },
      blocks: [{ number: bigBlock, hash: hash(1), parentHash: hash(2), timestamp: 1_900_000_000 }],
      pairs: [
        {
          address: POOL_A,
          dex: "uniswap-v2",
          factory: addr(0xf1),
          token0: addr(1),
          token1: addr(2),
          feeBps: 30,
        },
        {
          address: POOL_B,
          dex: "pancake-v2",
          factory: addr(0xf2),
          token0: addr(3),
          token1: addr(4),
          feeBps: 25,
        },
      ],
      reserves: [
        { pair: POOL_A, blockNumber: bigBlock, logIndex: 9, reserve0: max256, reserve1: 2n ** 112n - 1n },
      ],
      trades,
    };
    await store.commitRange("bsc", batch);

    const stored = await store.listTrades("bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    for (const t of stored) expect(typeof t.seq).toBe("bigint");
    expect(await store.getCheckpoint("bsc")).toEqual(batch.checkpoint);
    expect(await store.listBlocks("bsc")).toEqual(batch.blocks);
    expect(await store.listPairs("bsc")).toEqual(batch.pairs);
    expect(await store.listReserves("bsc")).toEqual(batch.reserves);
    // Networks do not see each other's rows.
    expect(await store.getCheckpoint("eth")).toBeUndefined();
    expect(await store.listTrades("eth", 0)).toEqual([]);
    expect(await store.listPairs("eth")).toEqual([]);
  });

  test("behavior: listTrades filters by timestamp and orders by block then txIndex", async () => {
    const store = await fresh();
    const trades = [
      makeTrade(0, 12n, { txIndex: 1 }),
      makeTrade(1, 11n, { txIndex: 0 }),
      makeTrade(2, 12n, { txIndex: 0 }),
      makeTrade(3, 10n, { txIndex: 5 }),
    ];
    await store.commitRange("bsc", makeBatch(trades, range(10n, 12n)));
    const all = await store.listTrades("bsc", 0);
    expect(all.map((t) => t.txHash)).toEqual([3, 1, 2, 0].map((i) => hash(0x1000 + i)));
    const since = await store.listTrades("bsc", T0 + 11 * 3);
    expect(since.map((t) => t.blockNumber)).toEqual([11n, 12n, 12n]);
    expect((await store.listBlocks("bsc", 11n)).map((b) => b.number)).toEqual([11n, 12n]);
  });

  test("behavior: re-committing the same range replaces trades and never duplicates them", async () => {
    const store = await fresh();
    const first = [makeTrade(0, 20n), makeTrade(1, 21n)];
    await store.commitRange("bsc", makeBatch(first, [20n, 21n]));
    const before = await store.listTrades("bsc", 0);

    const again = [makeTrade(0, 20n, { amountIn: 777n }), makeTrade(1, 21n)];
    const batch = makeBatch(
      again,
      [20n, 21n],
      [{ pair: POOL_A, blockNumber: 21n, logIndex: 1, reserve0: 5n, reserve1: 6n }],
    );
    await store.commitRange("bsc", batch);
    await store.commitRange("bsc", { ...batch, checkpoint: { blockNumber: 21n, blockHash: hash(0x21) } });

    const after = await store.listTrades("bsc", 0);
    expect(withoutSeq(after)).toEqual(again);
    expect(await store.listBlocks("bsc")).toHaveLength(2);
    expect(await store.listPairs("bsc")).toHaveLength(1);
    expect(await store.listReserves("bsc")).toEqual(batch.reserves);
    expect(await store.getCheckpoint("bsc")).toEqual({ blockNumber: 21n, blockHash: hash(0x21) });
    // A replaced trade gets a new seq, so a replica tailing by seq sees the new version.
    const maxBefore = before.map((t) => t.seq).sort((a, b) => (a < b ? -1 : 1))[before.length - 1]!;
    for (const t of after) expect(t.seq).toBeGreaterThan(maxBefore);
  });

  test("behavior: a transaction's several trades are kept apart, paged inside it, and replaced together", async () => {
    const store = await fresh();
    const tx = hash(0xa99);
    const sender = TRADERS[0]!;
    // An aggregator transaction between two plain ones: three trades of one tx, one sender.
    const split = [4, 9, 17].map((logIndex, k) =>
      makeTrade(10 + k, 31n, { txHash: tx, txIndex: 2, logIndex, sender, timestamp: D0 + HOUR }),
    );
    const trades = [
      makeTrade(0, 31n, { txIndex: 1, logIndex: 1, sender, timestamp: D0 + HOUR }),
      ...split,
      makeTrade(1, 31n, { txIndex: 3, logIndex: 20, timestamp: D0 + HOUR }),
    ];
    await store.commitRange("bsc", makeBatch(trades, [31n]));
    const stored = await store.listTrades("bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    // Pages of one or two trades end inside the transaction and lose nothing.
    for (const limit of [1, 2]) {
      expect(await readAllPages(store, "bsc", { fromTimestamp: 0, limit })).toEqual(stored);
    }
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: 31n, txIndex: 2, logIndex: 9 },
        limit: 10,
      }),
    ).toEqual(stored.slice(3));
    // One sender, however many trades: one trader that day.
    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(recomputeDays(trades));
    expect((await store.listDayAggregates("bsc", ...ALL_DAYS))[0]!.traderCount).toBe(2);

    // A re-commit of the transaction that splits it differently replaces all its trades.
    const merged = [
      makeTrade(10, 31n, { txHash: tx, txIndex: 2, logIndex: 4, sender, timestamp: D0 + HOUR }),
    ];
    await store.commitRange("bsc", makeBatch(merged, [31n]));
    const after = withoutSeq(await store.listTrades("bsc", 0));
    expect(after).toEqual([trades[0], merged[0], trades[4]]);
    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(recomputeDays(after));
    // The same trade twice in one batch is a bug: refused whole.
    await expect(store.commitRange("bsc", makeBatch([merged[0]!, merged[0]!], [31n]))).rejects.toThrow();
    expect(withoutSeq(await store.listTrades("bsc", 0))).toEqual(after);
  });

  test("behavior: rollback removes everything above the ancestor and keeps the rest", async () => {
    const store = await fresh();
    const blocks = range(100n, 105n);
    const trades = blocks.map((n, i) => makeTrade(i, n));
    const reserves: PairReserves[] = [
      { pair: POOL_A, blockNumber: 100n, logIndex: 0, reserve0: 100n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 103n, logIndex: 0, reserve0: 103n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 105n, logIndex: 0, reserve0: 105n, reserve1: 1n },
      { pair: POOL_B, blockNumber: 104n, logIndex: 2, reserve0: 104n, reserve1: 2n },
      { pair: POOL_C, blockNumber: 101n, logIndex: 0, reserve0: 101n, reserve1: 3n },
    ];
    await store.commitRange("bsc", makeBatch(trades, blocks, reserves));
    await store.commitRange("eth", { ...makeBatch([makeTrade(9, 104n, { network: "eth" })], [104n]) });
    expect(await store.listReserves("bsc")).toHaveLength(3);
    // Only the pairs that changed since a block, each with its newest row (what followers poll).
    expect(await store.listReserves("bsc", 104n)).toEqual([reserves[2], reserves[3]]);
    expect(await store.listReserves("bsc", 106n)).toEqual([]);

    const ancestor = { blockNumber: 102n, blockHash: hash(102n) };
    await store.rollback("bsc", ancestor);

    expect((await store.listTrades("bsc", 0)).map((t) => t.blockNumber)).toEqual([100n, 101n, 102n]);
    expect((await store.listBlocks("bsc")).map((b) => b.number)).toEqual([100n, 101n, 102n]);
    expect(await store.listReserves("bsc")).toEqual([reserves[0], reserves[4]]);
    expect(await store.getCheckpoint("bsc")).toEqual(ancestor);
    // Other networks are untouched.
    expect(await store.listTrades("eth", 0)).toHaveLength(1);
    expect(await store.getCheckpoint("eth")).toEqual({ blockNumber: 104n, blockHash: hash(104n) });
  });

  test("behavior: prune drops old trades and blocks, and reserves except each pair's newest", async () => {
    const store = await fresh();
    const blocks = range(1n, 10n);
    const trades = blocks.map((n, i) => makeTrade(i, n));
    const reserves: PairReserves[] = [
      { pair: POOL_A, blockNumber: 2n, logIndex: 0, reserve0: 2n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 4n, logIndex: 0, reserve0: 4n, reserve1: 1n },
      { pair: POOL_A, blockNumber: 8n, logIndex: 0, reserve0: 8n, reserve1: 1n },
      { pair: POOL_B, blockNumber: 1n, logIndex: 0, reserve0: 1n, reserve1: 2n },
      { pair: POOL_B, blockNumber: 3n, logIndex: 0, reserve0: 3n, reserve1: 2n },
    ];
    await store.commitRange("bsc", makeBatch(trades, blocks, reserves));

    await store.prune("bsc", { tradesBefore: T0 + 7 * 3, blocksBelow: 5n });

    expect((await store.listTrades("bsc", 0)).map((t) => t.blockNumber)).toEqual([7n, 8n, 9n, 10n]);
    expect((await store.listBlocks("bsc")).map((b) => b.number)).toEqual([5n, 6n, 7n, 8n, 9n, 10n]);
    expect(await store.listReserves("bsc")).toEqual([reserves[2], reserves[4]]);
    // Rolling back to block 5 now shows that POOL_A's rows below the prune line are gone.
    await store.rollback("bsc", { blockNumber: 5n, blockHash: hash(5n) });
    expect(await store.listReserves("bsc")).toEqual([reserves[4]]);
  });

  test("behavior: tokens and rejected pairs upsert without duplicates", async () => {
    const store = await fresh();
    await store.upsertTokens("bsc", [
      { address: "", name: "BNB", symbol: "BNB", decimals: 18 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 18 },
    ]);
    await store.upsertTokens("bsc", [
      { address: addr(0x70), name: "Tether USD", symbol: "USDT-old", decimals: 6 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 6 },
      { address: addr(0x71), name: "Wrapped BNB", symbol: "WBNB", decimals: 18 },
      // Free text must survive bulk writes unchanged: quotes, backslashes, commas, braces, "NULL", "".
      { address: addr(0x72), name: 'Odd "Token", {x} \\ y', symbol: "NULL", decimals: 0 },
      { address: addr(0x73), name: "", symbol: "", decimals: 255 },
    ]);
    await store.upsertTokens("bsc", []);
    expect(await store.listTokens("bsc")).toEqual([
      { address: "", name: "BNB", symbol: "BNB", decimals: 18 },
      { address: addr(0x70), name: "Tether USD", symbol: "USDT", decimals: 6 },
      { address: addr(0x71), name: "Wrapped BNB", symbol: "WBNB", decimals: 18 },
      { address: addr(0x72), name: 'Odd "Token", {x} \\ y', symbol: "NULL", decimals: 0 },
      { address: addr(0x73), name: "", symbol: "", decimals: 255 },
    ]);
    expect(await store.listTokens("eth")).toEqual([]);

    await store.addRejectedPairs("bsc", [addr(0xd2), addr(0xd1), addr(0xd2)]);
    await store.addRejectedPairs("bsc", [addr(0xd1), addr(0xd3)]);
    await store.addRejectedPairs("bsc", []);
    expect(await store.listRejectedPairs("bsc")).toEqual([addr(0xd1), addr(0xd2), addr(0xd3)]);
    expect(await store.listRejectedPairs("polygon")).toEqual([]);
  });

  test("error: a commit that fails mid-batch leaves nothing half-written", async () => {
    const store = await fresh();
    const good = makeBatch(
      [makeTrade(0, 70n)],
      [70n],
      [{ pair: POOL_A, blockNumber: 70n, logIndex: 0, reserve0: 1n, reserve1: 1n }],
    );
    await store.commitRange("bsc", good);

    const seqBefore = (await store.listTrades("bsc", 0))[0]!.seq;

    // The batch replaces the stored trade (its old row is deleted first), then lists one transaction twice:
    // the (network, tx_hash) key fails after other rows already went in.
    const bad: RangeBatch = {
      ...makeBatch(
        [makeTrade(0, 70n, { amountIn: 1n }), makeTrade(1, 71n), makeTrade(2, 72n), makeTrade(1, 72n)],
        [71n, 72n],
        [{ pair: POOL_A, blockNumber: 72n, logIndex: 0, reserve0: 9n, reserve1: 9n }],
      ),
    };
    bad.pairs = [
      ...bad.pairs,
      {
        address: POOL_B,
        dex: "pancake-v2",
        factory: addr(0xf2),
        token0: addr(3),
        token1: addr(4),
        feeBps: 25,
      },
    ];
    await expect(store.commitRange("bsc", bad)).rejects.toThrow(/unique|duplicate/i);

    expect(await store.getCheckpoint("bsc")).toEqual(good.checkpoint);
    const kept = await store.listTrades("bsc", 0);
    expect(withoutSeq(kept)).toEqual(good.trades);
    expect(kept[0]!.seq).toBe(seqBefore);
    expect(await store.listBlocks("bsc")).toEqual(good.blocks);
    expect(await store.listPairs("bsc")).toEqual(good.pairs);
    expect(await store.listReserves("bsc")).toEqual(good.reserves);

    // The store is still usable after the failure.
    await store.commitRange("bsc", makeBatch([makeTrade(1, 71n)], [71n]));
    expect(await store.listTrades("bsc", 0)).toHaveLength(2);
  });

  test("behavior: day aggregates stay exact through commits, a changed re-commit, rollbacks and a prune", async () => {
    const store = await fresh();
    const expectExact = async () =>
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
        recomputeDays(await store.listTrades("bsc", 0)),
      );
    // Blocks 0..71: three whole days, committed a day per range. Trade 130 (block 65) is its
    // sender's only one, so the rollback below takes that sender out of a day that stays.
    const trades = Array.from({ length: 144 }, (_, i) =>
      dayTrade(i, i === 130 ? { sender: addr(0x5b6) } : {}),
    );
    for (const [from, to] of [
      [0n, 23n],
      [24n, 47n],
      [48n, 71n],
    ] as const) {
      await store.commitRange(
        "bsc",
        makeBatch(
          trades.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
          range(from, to),
        ),
      );
      await expectExact();
    }
    const ethTrades = [dayTrade(900, { network: "eth" }), dayTrade(901, { network: "eth" })];
    await store.commitRange("eth", makeBatch(ethTrades, [450n]));
    const ethDays = recomputeDays(ethTrades);
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(ethDays);
    const days = await store.listDayAggregates("bsc", ...ALL_DAYS);
    expect(days.map((d) => d.day)).toEqual([DAY0, DAY0 + 1, DAY0 + 2]);
    expect(days.map((d) => d.traderCount)).toEqual([4, 4, 5]);

    // A re-commit of blocks 40..55 where some transactions changed: a sender only (the day's
    // volume and count stay, its distinct senders change), a volume, tracked to untracked, one
    // transaction moved from day 1 into day 2, and two new ones.
    const changed = trades
      .filter((t) => t.blockNumber >= 40n && t.blockNumber <= 55n)
      .map((t) => {
        if (t.txHash === trades[80]!.txHash) return { ...t, sender: addr(0x5b9) };
        if (t.txHash === trades[82]!.txHash) return { ...t, volumeUsd: 7n };
        if (t.txHash === trades[84]!.txHash) return { ...t, volumeUsd: 0n, tracked: false };
        if (t.txHash === trades[93]!.txHash) {
          return { ...t, blockNumber: 50n, timestamp: D0 + 50 * HOUR, txIndex: 5, sender: addr(0x5b8) };
        }
        return t;
      });
    changed.push(dayTrade(500, { blockNumber: 44n, txIndex: 9 }));
    changed.push(dayTrade(501, { blockNumber: 52n, txIndex: 9, sender: addr(0x5b7) }));
    await store.commitRange("bsc", makeBatch(changed, range(40n, 55n)));
    expect(await store.listTrades("bsc", 0)).toHaveLength(146);
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 2)).map((d) => d.traderCount)).toEqual([
      5, 7,
    ]);
    // Trade 80 goes back to its first sender: 0x5b9 leaves day 1, which keeps its volume and count.
    await store.commitRange("bsc", makeBatch([trades[80]!], [40n]));
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 1))[0]!.traderCount).toBe(4);

    await store.rollback("bsc", { blockNumber: 60n, blockHash: hash(60n) });
    await expectExact();
    expect((await store.listDayAggregates("bsc", DAY0 + 2, DAY0 + 2))[0]!.traderCount).toBe(6);
    // Down into day 1: day 2 loses every trade and its row goes.
    await store.rollback("bsc", { blockNumber: 45n, blockHash: hash(45n) });
    await expectExact();
    expect((await store.listDayAggregates("bsc", ...ALL_DAYS)).map((d) => d.day)).toEqual([DAY0, DAY0 + 1]);
    await store.commitRange(
      "bsc",
      makeBatch(
        Array.from({ length: 10 }, (_, i) => dayTrade(600 + i, { blockNumber: 46n + BigInt(i) })),
        range(46n, 55n),
      ),
    );
    await expectExact();

    // Prune in the middle of day 1: day 0 goes, day 1 keeps its whole aggregate although its
    // first five hours of trades are deleted.
    const beforePrune = recomputeDays(await store.listTrades("bsc", 0));
    await store.prune("bsc", { tradesBefore: D0 + DAY + 5 * HOUR, blocksBelow: 0n });
    expect((await store.listTrades("bsc", 0))[0]!.timestamp).toBe(D0 + DAY + 5 * HOUR);
    expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
      beforePrune.filter((d) => d.day >= DAY0 + 1),
    );
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(ethDays);
  });

  test("behavior: candles stay equal to a recompute from the stored trades through commits, re-commits, out-of-order commits, rollbacks and a prune", async () => {
    const store = await fresh();
    const random = createRandom(9);
    const expectExact = async (trades?: readonly Trade[]) =>
      expectCandlesEqualRecompute(store, "bsc", trades ?? (await store.listTrades("bsc", 0)), CANDLE_SERIES);
    // 600 trades over blocks 0..398 (three days), committed in four ranges: the appending path.
    const trades = Array.from({ length: 600 }, (_, i) => candleTrade(i, random));
    for (const [from, to] of [
      [0n, 99n],
      [100n, 199n],
      [200n, 299n],
      [300n, 399n],
    ] as const) {
      await store.commitRange(
        "bsc",
        makeBatch(
          trades.filter((t) => t.blockNumber >= from && t.blockNumber <= to),
          range(from, to),
        ),
      );
      await expectExact();
    }
    const stored = await store.listTrades("bsc", 0);
    expect(withoutSeq(stored)).toEqual(
      [...trades].sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.txIndex - b.txIndex),
    );
    expect(await expectExact()).toBeGreaterThan(1_000);
    // Every shape is there, including trades without a price and without marks.
    const days = await store.listCandles("bsc", {
      subject: { kind: "token", token: TOKEN_A },
      interval: 86_400,
      fromTimestamp: 0,
      limit: 10,
    });
    expect(days.map((d) => d.start)).toEqual([D0, D0 + DAY, D0 + 2 * DAY]);
    expect(trades.some((t) => t.marks === undefined)).toBe(true);

    // A re-commit of blocks 150..220 where transactions changed (prices, amounts, a block) and
    // new ones came: the buckets it touches are rebuilt from the stored trades.
    const changed = trades
      .filter((t) => t.blockNumber >= 150n && t.blockNumber <= 220n)
      .map((t, i) => {
        if (t.marks === undefined || i % 4 !== 0) return t;
        if (i % 8 === 0) return { ...t, marks: { ...t.marks, priceInUsd: 10n ** 30n, priceOutUsd: 1n } };
        return { ...t, blockNumber: 219n, timestamp: candleTime(219n), txIndex: 10 + i };
      });
    changed.push(
      candleTrade(700, random, { blockNumber: 151n }),
      candleTrade(701, random, { blockNumber: 151n }),
    );
    await store.commitRange("bsc", makeBatch(changed, range(150n, 220n)));
    await expectExact();
    // Trades committed below the newest stored one, in blocks no range held: rebuilt, not appended.
    await store.commitRange(
      "bsc",
      makeBatch([candleTrade(702, random, { blockNumber: 51n, txIndex: 0 })], [51n]),
    );
    await expectExact();

    // A spike at the top of the last day: the rollback must take it out of the day's high.
    const spike = candleTrade(703, random, { blockNumber: 401n, txIndex: 0, logIndex: 0 });
    const spiked: Trade = {
      ...spike,
      tokenIn: TOKEN_A,
      tokenOut: TOKEN_B,
      pools: [POOL_A],
      marks: {
        priceInUsd: 10n ** 40n,
        priceOutUsd: 1n,
        native: undefined,
        hops: [{ zeroForOne: true, amountIn: spike.amountIn, amountOut: spike.amountOut }],
      },
    };
    await store.commitRange("bsc", makeBatch([spiked], [401n]));
    await expectExact();
    const lastDay = { subject: { kind: "token" as const, token: TOKEN_A }, interval: 86_400 as const };
    const dayOf = async () =>
      (await store.listCandles("bsc", { ...lastDay, fromTimestamp: D0 + 2 * DAY, limit: 1 }))[0]!;
    expect((await dayOf()).high).toBe(10n ** 40n);
    await store.rollback("bsc", { blockNumber: 400n, blockHash: hash(400n) });
    await expectExact();
    expect((await dayOf()).high).toBeLessThan(10n ** 40n);
    expect((await dayOf()).low).toBeGreaterThan(1n);
    // Down across many buckets of every width.
    await store.rollback("bsc", { blockNumber: 250n, blockHash: hash(250n) });
    await expectExact();
    await store.commitRange(
      "bsc",
      makeBatch(
        Array.from({ length: 30 }, (_, i) => candleTrade(800 + i, random, { blockNumber: 251n + BigInt(i) })),
        range(251n, 280n),
      ),
    );
    await expectExact();

    // Another network's candles are its own.
    const eth = [
      candleTrade(900, random, { network: "eth", marks: { ...trades[0]!.marks!, priceInUsd: 5n } }),
    ];
    await store.commitRange("eth", makeBatch(eth, [7n]));
    await expectCandlesEqualRecompute(store, "eth", eth, CANDLE_SERIES);
    await expectExact();

    // Prune in the middle of day 1: day 0 goes in every width, day 1 keeps all its candles
    // whole although its first five hours of trades are deleted.
    const beforePrune = await store.listTrades("bsc", 0);
    await store.prune("bsc", { tradesBefore: D0 + DAY + 5 * HOUR, blocksBelow: 0n });
    expect((await store.listTrades("bsc", 0))[0]!.timestamp).toBeGreaterThanOrEqual(D0 + DAY + 5 * HOUR);
    await expectExact(beforePrune.filter((t) => t.timestamp >= D0 + DAY));
    await expectCandlesEqualRecompute(store, "eth", eth, CANDLE_SERIES);
  });

  test("behavior: listCandles reads buckets ascending from the one holding `from`, before `to`, at most `limit`", async () => {
    const store = await fresh();
    const random = createRandom(4);
    const trades = Array.from({ length: 300 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 199n)));
    const subject = { kind: "pool" as const, pool: POOL_A };
    const all = recomputeCandles(trades).get(`pool:${POOL_A}:3600`)!;
    expect(all.length).toBeGreaterThan(20);
    const third = all[3]!;
    const page = await store.listCandles("bsc", {
      subject,
      interval: 3_600,
      fromTimestamp: third.start + 1_799,
      toTimestamp: all[9]!.start,
      limit: 100,
    });
    expect(page).toEqual(all.slice(3, 9));
    expect(
      await store.listCandles("bsc", { subject, interval: 3_600, fromTimestamp: third.start, limit: 2 }),
    ).toEqual(all.slice(3, 5));
    // A series nobody traded, and a range past the last bucket, are empty.
    expect(
      await store.listCandles("bsc", {
        subject: { kind: "token", token: addr(0xdead) },
        interval: 60,
        fromTimestamp: 0,
        limit: 10,
      }),
    ).toEqual([]);
    expect(
      await store.listCandles("bsc", { subject, interval: 60, fromTimestamp: D0 + 10 * DAY, limit: 10 }),
    ).toEqual([]);
    // A pool address is not a token series (an LP token of the same address is another series).
    expect(
      await store.listCandles("bsc", {
        subject: { kind: "token", token: POOL_A },
        interval: 60,
        fromTimestamp: 0,
        limit: 10,
      }),
    ).toEqual([]);
  });

  test("behavior: sumCandles sums each asked series' buckets of one interval between from and to (inclusive), as a recompute does", async () => {
    const store = await fresh();
    const random = createRandom(11);
    const trades = Array.from({ length: 400 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 199n)));
    const recomputed = recomputeCandles(trades);
    const hours = recomputed.get(`pool:${POOL_A}:3600`)!;
    expect(hours.length).toBeGreaterThan(10);
    const [from, to] = [hours[2]!.start, hours[8]!.start];
    const expected = (key: string) => {
      const inRange = (recomputed.get(key) ?? []).filter((c) => c.start >= from && c.start <= to);
      if (inRange.length === 0) return undefined;
      return {
        volume: inRange.reduce((sum, c) => sum + c.volume, 0n),
        quoteVolume: inRange.reduce((sum, c) => sum + c.quoteVolume, 0n),
        volumeUsd: inRange.reduce((sum, c) => sum + c.volumeUsd!, 0n),
        tradeCount: inRange.reduce((sum, c) => sum + c.tradeCount, 0),
      };
    };
    const pools = await store.sumCandles("bsc", {
      kind: "pool",
      subjects: [POOL_A, POOL_B, addr(0xdead)],
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    // A series without a bucket in the range is absent; the others are exact.
    expect([...pools.keys()].sort()).toEqual([POOL_A, POOL_B].sort());
    expect(pools.get(POOL_A)).toEqual(expected(`pool:${POOL_A}:3600`));
    expect(pools.get(POOL_B)).toEqual(expected(`pool:${POOL_B}:3600`));
    expect(pools.get(POOL_A)!.volumeUsd).toBeGreaterThan(0n);
    const tokens = await store.sumCandles("bsc", {
      kind: "token",
      subjects: [TOKEN_A, POOL_A],
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    expect([...tokens.keys()]).toEqual([TOKEN_A]);
    expect(tokens.get(TOKEN_A)).toEqual(expected(`token:${TOKEN_A}:3600`));
    // More series than one statement reads: chunked, same answer.
    const many = [...Array.from({ length: 1_200 }, (_, i) => addr(0x10000 + i)), POOL_B];
    const chunked = await store.sumCandles("bsc", {
      kind: "pool",
      subjects: many,
      interval: 3_600,
      fromTimestamp: from,
      toTimestamp: to,
    });
    expect([...chunked]).toEqual([[POOL_B, expected(`pool:${POOL_B}:3600`)]]);
    await expect(
      store.sumCandles("bsc", {
        kind: "pool",
        subjects: [],
        interval: 120 as 60,
        fromTimestamp: 0,
        toTimestamp: 1,
      }),
    ).rejects.toThrow("Invalid candle interval.");
    // Without subjects: every series of the kind, by time over the hourly index, the same totals.
    for (const kind of ["pool", "token"] as const) {
      const byTime = await store.sumCandles("bsc", {
        kind,
        interval: 3_600,
        fromTimestamp: from,
        toTimestamp: to,
      });
      const every = [...recomputed.keys()]
        .filter((key) => key.startsWith(`${kind}:`) && key.endsWith(":3600"))
        .map((key) => key.split(":")[1] as Address);
      const expectedAll = new Map(
        every.flatMap((subject) => {
          const total = expected(`${kind}:${subject}:3600`);
          return total === undefined ? [] : [[subject, total] as const];
        }),
      );
      expect(expectedAll.size).toBeGreaterThan(2);
      expect(byTime).toEqual(expectedAll);
    }
    await expect(
      store.sumCandles("bsc", { kind: "pool", interval: 60, fromTimestamp: from, toTimestamp: to }),
    ).rejects.toThrow("Invalid candle interval.");
  });

  test.skipIf(!backend.shared)(
    "behavior: migration 5 keeps token candles' USD volume and marks older pool candles' USD volume unknown, so no sum over them is wrong",
    async () => {
      const db = backend.newDatabase();
      const start = D0;
      await db.seedV4Candles!([
        { kind: 0, subject: TOKEN_A, width: 3_600, start, volume: 5n, quoteVolume: 2n ** 200n + 7n },
        { kind: 1, subject: POOL_A, width: 3_600, start, volume: 5n, quoteVolume: 9n },
      ]);
      const store = open(db);
      await store.migrate();
      const read = (subject: CandleSeries["subject"]) =>
        store.listCandles("bsc", { subject, interval: 3_600, fromTimestamp: start, limit: 5 });
      expect((await read({ kind: "token", token: TOKEN_A }))[0]!.volumeUsd).toBe(2n ** 200n + 7n);
      expect((await read({ kind: "pool", pool: POOL_A }))[0]!.volumeUsd).toBeUndefined();
      // A new trade appended to the old pool bucket keeps it unknown; a bucket of its own is exact.
      const random = createRandom(12);
      const later = candleTrade(1, random, { blockNumber: 1n });
      const trade: Trade = {
        ...later,
        timestamp: start + 60,
        pools: [POOL_A],
        marks: {
          priceInUsd: 10n ** 18n,
          priceOutUsd: 10n ** 18n,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn: 3n, amountOut: 4n }],
        },
      };
      const next: Trade = { ...trade, txHash: hash(0x7777), blockNumber: 2n, timestamp: start + 3_600 };
      await store.commitRange("bsc", makeBatch([trade, next], [1n, 2n]));
      const [old, fresh] = await read({ kind: "pool", pool: POOL_A });
      expect(old!.volumeUsd).toBeUndefined();
      expect(old!.tradeCount).toBe(2);
      expect(fresh!.volumeUsd).toBe(next.volumeUsd);
      // Token rows were not rewritten: old and appended alike read their USD value as quote volume.
      const tokenRows = (
        await Promise.all(
          [TOKEN_A, trade.tokenIn, trade.tokenOut]
            .filter((token) => token !== "")
            .map((token) => read({ kind: "token", token: token as Address })),
        )
      ).flat();
      expect(tokenRows.length).toBeGreaterThan(1);
      for (const row of tokenRows) expect(row.volumeUsd).toBe(row.quoteVolume);
      const sum = (toTimestamp: number) =>
        store.sumCandles("bsc", {
          kind: "pool",
          subjects: [POOL_A],
          interval: 3_600,
          fromTimestamp: start,
          toTimestamp,
        });
      expect((await sum(start + 3_600)).get(POOL_A)!.volumeUsd).toBeUndefined();
    },
  );

  test("error: listCandles refuses an unknown interval, a limit outside 1..10,000 and a negative time", async () => {
    const store = await fresh();
    const query = {
      subject: { kind: "token" as const, token: TOKEN_A },
      interval: 60 as const,
      fromTimestamp: 0,
    };
    for (const limit of [0, 10_001, 1.5]) {
      await expect(store.listCandles("bsc", { ...query, limit })).rejects.toThrow(
        "Invalid candle page limit.",
      );
    }
    await expect(store.listCandles("bsc", { ...query, interval: 120 as 60, limit: 1 })).rejects.toThrow(
      "Invalid candle interval.",
    );
    await expect(store.listCandles("bsc", { ...query, fromTimestamp: -1, limit: 1 })).rejects.toThrow(
      "Invalid candle time range.",
    );
    expect(await store.listCandles("bsc", { ...query, limit: 10_000 })).toEqual([]);
  });

  test("error: a failed commit leaves the candles untouched", async () => {
    const store = await fresh();
    const random = createRandom(5);
    const trades = Array.from({ length: 60 }, (_, i) => candleTrade(i, random));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 39n)));
    // The same trade twice in one batch breaks the unique key: nothing of that commit stays.
    const next = candleTrade(100, random, { blockNumber: 41n });
    await expect(store.commitRange("bsc", makeBatch([next, next], [41n]))).rejects.toThrow();
    await expectCandlesEqualRecompute(store, "bsc", trades, CANDLE_SERIES);
  });

  test("behavior: listDayAggregates answers an inclusive day range; countTrades counts since a timestamp", async () => {
    const store = await fresh();
    const trades = Array.from({ length: 144 }, (_, i) => dayTrade(i));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 71n)));
    const all = recomputeDays(trades);
    expect(await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 1)).toEqual([all[1]]);
    expect(byDay(await store.listDayAggregates("bsc", DAY0 + 1, DAY0 + 9))).toEqual(all.slice(1));
    expect(await store.listDayAggregates("bsc", DAY0 + 3, DAY0 + 9)).toEqual([]);
    expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual([]);
    expect(await store.countTrades("bsc", 0)).toBe(144);
    expect(await store.countTrades("bsc", D0 + 70 * HOUR)).toBe(4);
    expect(await store.countTrades("bsc", D0 + 72 * HOUR)).toBe(0);
    expect(await store.countTrades("eth", 0)).toBe(0);
  });

  test("behavior: saveHead keeps one head per network and getHead reads it back", async () => {
    const store = await fresh();
    expect(await store.getHead("bsc")).toBeUndefined();
    await store.saveHead("bsc", { headBlock: 2n ** 60n, checkedAt: 1_763_000_000_123, syncedAt: undefined });
    await store.saveHead("eth", { headBlock: 7n, checkedAt: 1, syncedAt: 2 });
    expect(await store.getHead("bsc")).toEqual({
      headBlock: 2n ** 60n,
      checkedAt: 1_763_000_000_123,
      syncedAt: undefined,
    });
    await store.saveHead("bsc", { headBlock: 9n, checkedAt: 1_763_000_001_000, syncedAt: 1_763_000_000_999 });
    expect(await store.getHead("bsc")).toEqual({
      headBlock: 9n,
      checkedAt: 1_763_000_001_000,
      syncedAt: 1_763_000_000_999,
    });
    expect(await store.getHead("eth")).toEqual({ headBlock: 7n, checkedAt: 1, syncedAt: 2 });
  });

  test("behavior: listTradePage pages equal the filtered full list for every filter and page size", async () => {
    const store = await fresh();
    const TOKEN_A = addr(0x7a);
    const tokens: TokenRef[] = ["", TOKEN_A, addr(0x7b), addr(0x7c)];
    const trades: Trade[] = [];
    // 40 blocks with 0..4 trades; two blocks share each timestamp (timestamps never decrease).
    for (let b = 0; b < 40; b++) {
      for (let tx = 0; tx < (b * 7) % 5; tx++) {
        const i = trades.length;
        trades.push(
          makeTrade(i, 1_000n + BigInt(b), {
            timestamp: T0 + Math.floor(b / 2) * 12,
            txIndex: tx * 3,
            sender: TRADERS[i % 3]!,
            tokenIn: tokens[i % 4]!,
            // Every fifth trade is a cycle that sold and bought the same token.
            tokenOut: i % 5 === 0 ? tokens[i % 4]! : tokens[(i * 3 + 1) % 4]!,
          }),
        );
      }
    }
    await store.commitRange("bsc", makeBatch(trades, range(1_000n, 1_039n)));
    await store.commitRange(
      "eth",
      makeBatch(
        [makeTrade(999, 1_010n, { network: "eth", tokenIn: TOKEN_A, sender: TRADERS[0]! })],
        [1_010n],
      ),
    );
    const stored = await store.listTrades("bsc", 0);
    expect(stored).toHaveLength(trades.length);

    // Both window ends fall on a timestamp two blocks share: both blocks are in.
    const fromMid = T0 + 6 * 12;
    const cases: Omit<TradePageQuery, "limit">[] = [];
    for (const fromTimestamp of [0, fromMid])
      for (const toTimestamp of [undefined, T0 + 15 * 12])
        for (const maxBlock of [undefined, 1_026n])
          for (const token of [undefined, "" as const, TOKEN_A])
            for (const sender of [undefined, TRADERS[1]!]) {
              cases.push({
                fromTimestamp,
                ...(toTimestamp === undefined ? {} : { toTimestamp }),
                ...(maxBlock === undefined ? {} : { maxBlock }),
                ...(token === undefined ? {} : { token }),
                ...(sender === undefined ? {} : { sender }),
              });
            }
    for (const c of cases) {
      const expected = stored.filter(
        (t) =>
          t.timestamp >= c.fromTimestamp &&
          (c.toTimestamp === undefined || t.timestamp < c.toTimestamp) &&
          (c.maxBlock === undefined || t.blockNumber <= c.maxBlock) &&
          (c.token === undefined || t.tokenIn === c.token || t.tokenOut === c.token) &&
          (c.sender === undefined || t.sender === c.sender),
      );
      expect(
        expected.length,
        JSON.stringify(c, (_, v) => (typeof v === "bigint" ? `${v}` : v)),
      ).toBeGreaterThan(0);
      for (const limit of [1, 7, 1000]) {
        expect(await readAllPages(store, "bsc", { ...c, limit })).toEqual(expected);
      }
    }
    // A position inside the window starts right after it; one past the end gives nothing.
    const mid = stored[20]!;
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: mid.blockNumber, txIndex: mid.txIndex, logIndex: mid.logIndex },
        limit: 3,
      }),
    ).toEqual(stored.slice(21, 24));
    const last = stored[stored.length - 1]!;
    expect(
      await store.listTradePage("bsc", {
        fromTimestamp: 0,
        after: { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex },
        limit: 10,
      }),
    ).toEqual([]);
    // Empty windows: after the last trade, or ending before the first.
    expect(await store.listTradePage("bsc", { fromTimestamp: T0 + 10 * DAY, limit: 10 })).toEqual([]);
    expect(await store.listTradePage("bsc", { fromTimestamp: 0, toTimestamp: T0, limit: 10 })).toEqual([]);
    expect(await store.listTradePage("eth", { fromTimestamp: 0, token: TOKEN_A, limit: 10 })).toHaveLength(1);
  });

  test("error: listTradePage refuses a limit outside 1..10,000", async () => {
    const store = await fresh();
    for (const limit of [0, 10_001, 1.5, Number.NaN]) {
      await expect(store.listTradePage("bsc", { fromTimestamp: 0, limit })).rejects.toThrow(
        "Invalid trade page limit.",
      );
    }
    expect(await store.listTradePage("bsc", { fromTimestamp: 0, limit: 10_000 })).toEqual([]);
  });

  test("error: a failed commit leaves the day aggregates untouched", async () => {
    const store = await fresh();
    const trades = Array.from({ length: 60 }, (_, i) => dayTrade(i));
    await store.commitRange("bsc", makeBatch(trades, range(0n, 29n)));
    const before = await store.listDayAggregates("bsc", ...ALL_DAYS);
    const storedBefore = await store.listTrades("bsc", 0);
    expect(before).toHaveLength(2);

    // Replaces stored trades with new senders and volumes (moving one to another day), then fails:
    // once on a transaction listed twice, once on the checkpoint, the batch's last statement.
    const changed = trades.slice(40, 50).map((t, i) => ({
      ...t,
      sender: addr(0x5c0 + i),
      volumeUsd: t.volumeUsd + 1n,
      ...(i === 9 ? { timestamp: D0 } : {}),
    }));
    const duplicate = makeBatch([...changed, dayTrade(70), dayTrade(70)], range(20n, 35n));
    await expect(store.commitRange("bsc", duplicate)).rejects.toThrow(/unique|duplicate/i);
    const noHash: RangeBatch = {
      ...makeBatch([...changed, dayTrade(71)], range(20n, 35n)),
      checkpoint: { blockNumber: 35n, blockHash: null as unknown as Hash },
    };
    await expect(store.commitRange("bsc", noHash)).rejects.toThrow(/null/i);

    expect(await store.listDayAggregates("bsc", ...ALL_DAYS)).toEqual(before);
    expect(await store.listTrades("bsc", 0)).toEqual(storedBefore);
    // And the aggregates still move correctly afterwards.
    await store.commitRange("bsc", makeBatch(changed, range(20n, 25n)));
    expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
      recomputeDays(await store.listTrades("bsc", 0)),
    );
  });

  test.skipIf(!backend.shared)(
    "behavior: migrations 2 and 3 backfill the day aggregates of a version-1 store exactly and keep its trades",
    async () => {
      const db = backend.newDatabase();
      const trades = [
        ...Array.from({ length: 100 }, (_, i) => dayTrade(i)),
        // Sums a double cannot hold: 2^255 twice in one day, and 10^18 + 1 next to 2^200.
        dayTrade(200, { blockNumber: 3n, txIndex: 7, volumeUsd: 2n ** 255n, tracked: true }),
        dayTrade(201, { blockNumber: 4n, txIndex: 7, volumeUsd: 2n ** 255n }),
        dayTrade(202, { blockNumber: 30n, txIndex: 7, volumeUsd: 10n ** 18n + 1n }),
        ...Array.from({ length: 10 }, (_, i) => dayTrade(300 + i, { network: "eth", blockNumber: 900n })),
      ];
      await db.seedV1!(trades);
      const store = open(db);
      await store.migrate();
      const bsc = trades.filter((t) => t.network === "bsc");
      const eth = trades.filter((t) => t.network === "eth");
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(recomputeDays(bsc));
      expect(await store.listDayAggregates("eth", ...ALL_DAYS)).toEqual(recomputeDays(eth));
      expect((await store.listDayAggregates("bsc", DAY0, DAY0))[0]!.volumeUsd).toBe(
        bsc.filter((t) => t.timestamp < D0 + DAY).reduce((sum, t) => sum + t.volumeUsd, 0n),
      );

      // The backfilled rows are maintained from then on, including day_traders' counts.
      await store.commitRange("bsc", makeBatch([{ ...trades[0]!, sender: addr(0x5d1) }], [0n]));
      await store.rollback("bsc", { blockNumber: 20n, blockHash: hash(20n) });
      expect(byDay(await store.listDayAggregates("bsc", ...ALL_DAYS))).toEqual(
        recomputeDays(await store.listTrades("bsc", 0)),
      );
      // And the new indexes serve pages over the old rows.
      const bySender = await readAllPages(store, "bsc", { fromTimestamp: 0, sender: TRADERS[2]!, limit: 4 });
      expect(bySender.map((t) => t.txHash)).toEqual(
        (await store.listTrades("bsc", 0)).filter((t) => t.sender === TRADERS[2]).map((t) => t.txHash),
      );
      // Migration 3: the old rows (one trade per transaction) read back with log index 0, and
      // new trades never reuse a seq.
      const migrated = await store.listTrades("bsc", 0);
      expect(migrated.filter((t) => t.txHash !== trades[0]!.txHash).every((t) => t.logIndex === 0)).toBe(
        true,
      );
      const maxSeq = migrated.reduce((max, t) => (t.seq > max ? t.seq : max), 0n);
      await store.commitRange("bsc", makeBatch([makeTrade(900, 40n, { logIndex: 3 })], [40n]));
      const added = (await store.listTrades("bsc", 0)).find((t) => t.txHash === hash(0x1000 + 900))!;
      expect(added.logIndex).toBe(3);
      expect(added.seq).toBeGreaterThan(maxSeq);
    },
  );

  test("error: a trade filed under another network is refused before anything is written", async () => {
    const store = await fresh();
    const batch = makeBatch([makeTrade(0, 80n, { network: "eth" })], [80n]);
    await expect(store.commitRange("bsc", batch)).rejects.toThrow("trade committed under another network");
    expect(await store.getCheckpoint("bsc")).toBeUndefined();
  });

  test("behavior: commits 20,000 trades in one batch and reads the 24h window back", async () => {
    const store = await fresh();
    const count = 20_000;
    const span = 7 * DAY;
    const start = 40_000_000n;
    const trades: Trade[] = [];
    for (let i = 0; i < count; i++) {
      const blockNumber = start + BigInt(Math.floor(i / 10));
      trades.push(
        makeTrade(i, blockNumber, {
          txHash: hash(0x100000 + i),
          timestamp: T0 + Math.floor((i * span) / count),
          txIndex: i % 10,
          amountIn: 2n ** 200n + BigInt(i),
          pools: i % 3 === 0 ? [POOL_A, POOL_B] : [POOL_A],
          tokenIn: i % 5 === 0 ? "" : addr(0x70),
        }),
      );
    }
    const lastBlock = start + BigInt(count / 10 - 1);
    const batch: RangeBatch = {
      ...makeBatch([], []),
      checkpoint: { blockNumber: lastBlock, blockHash: hash(lastBlock) },
      trades,
    };

    const t0 = performance.now();
    await store.commitRange("bsc", batch);
    const insertMs = performance.now() - t0;

    const since = T0 + span - DAY;
    const t1 = performance.now();
    const window = await store.listTrades("bsc", since);
    const readMs = performance.now() - t1;

    const expected = trades.filter((t) => t.timestamp >= since);
    expect(window).toHaveLength(expected.length);
    expect(withoutSeq([window[0]!, window[window.length - 1]!])).toEqual([
      expected[0],
      expected[expected.length - 1],
    ]);
    console.log(
      `[${backend.name}] inserted ${count} trades in ${insertMs.toFixed(0)} ms ` +
        `(${Math.round(count / (insertMs / 1000))} rows/s); 24h window read: ${window.length} rows in ${readMs.toFixed(0)} ms`,
    );
  });
});

describe.skipIf(PG_SKIP)("store: postgres writer lock", () => {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  // Lock keys include the schema: tests on their own schema never meet each other's locks.
  const otherSchema = `t_${randomBytes(6).toString("hex")}`;
  const opened: Store[] = [];
  const open = (inSchema = schema) => {
    const store = createPostgresStore({ url: PG_URL, schema: inSchema });
    opened.push(store);
    return store;
  };

  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${otherSchema} CASCADE`);
    await sql.end({ timeout: 1 });
  });

  test("behavior: networks acquiring at once share one lock session; closing the store frees them all", async () => {
    const a = open(otherSchema);
    const b = open(otherSchema);
    await a.migrate();
    const networks = ["bsc", "eth", "polygon"] as const;
    expect(await Promise.all(networks.map((n) => a.tryAcquireWriter(n)))).toEqual([true, true, true]);

    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    const holders = async () => {
      const keys = networks.map((n) => writerLockKey(otherSchema, n).objid);
      const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${writerLockKey(otherSchema, "bsc").classid}::oid
          AND objid::int8 = ANY(${`{${keys.join(",")}}`}::int8[])`;
      return rows.map((row) => row.pid);
    };
    try {
      // One session holds the three locks: none is left on an orphaned session.
      const pids = await holders();
      expect(pids).toHaveLength(3);
      expect(new Set(pids).size).toBe(1);

      for (const [i, network] of networks.entries()) {
        const blockNumber = BigInt(10 + i);
        await a.commitRange(network, makeBatch([makeTrade(i, blockNumber, { network })], [blockNumber]));
        await a.saveHead(network, { headBlock: blockNumber, checkedAt: 1, syncedAt: 1 });
        expect(await b.getCheckpoint(network)).toEqual({ blockNumber, blockHash: hash(blockNumber) });
      }
      expect(await Promise.all(networks.map((n) => b.tryAcquireWriter(n)))).toEqual([false, false, false]);

      await a.close();
      // The server drops the locks when the backend exits, just after the client disconnects.
      await waitFor(async () => (await holders()).length === 0, 10_000, "the closed store's locks to go");
      expect(await Promise.all(networks.map((n) => b.tryAcquireWriter(n)))).toEqual([true, true, true]);
      await b.commitRange("polygon", makeBatch([], [20n]));
      expect((await b.getCheckpoint("polygon"))?.blockNumber).toBe(20n);
    } finally {
      await admin.end({ timeout: 1 });
    }
  });

  test("behavior: one writer per network; a lost lock refuses writes until the lock is taken again", async () => {
    const a = open();
    const b = open();
    await a.migrate();
    expect(await a.tryAcquireWriter("bsc")).toBe(true);
    expect(await a.tryAcquireWriter("bsc")).toBe(true);
    expect(await b.tryAcquireWriter("bsc")).toBe(false);
    expect(await b.tryAcquireWriter("eth")).toBe(true);
    const batch = {
      checkpoint: { blockNumber: 5n, blockHash: `0x${"11".repeat(32)}` as Hash },
      blocks: [],
      pairs: [],
      reserves: [],
      trades: [],
    };
    await a.commitRange("bsc", batch);

    // The lock session dies (a network blip, a killed backend): PostgreSQL drops its locks.
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    const key = writerLockKey(schema, "bsc");
    const killed = await admin`SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = ${key.classid}::oid AND objid = ${key.objid}::oid`;
    expect(killed).toHaveLength(1);
    // pg_terminate_backend only signals: the lock goes when the backend has exited.
    await waitFor(async () => {
      const held = await admin`SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${key.classid}::oid AND objid = ${key.objid}::oid`;
      return held.length === 0;
    }, 10_000);
    await admin.end({ timeout: 1 });

    await expect(
      a.commitRange("bsc", { ...batch, checkpoint: { ...batch.checkpoint, blockNumber: 6n } }),
    ).rejects.toThrow("Lost the writer lock of bsc: the write was refused.");
    expect((await b.getCheckpoint("bsc"))?.blockNumber).toBe(5n);
    // The lock is free again: the other store takes it and writes.
    expect(await b.tryAcquireWriter("bsc")).toBe(true);
    await b.commitRange("bsc", { ...batch, checkpoint: { ...batch.checkpoint, blockNumber: 7n } });
    expect((await b.getCheckpoint("bsc"))?.blockNumber).toBe(7n);
    // Still refused for the store that lost it.
    await expect(a.commitRange("bsc", batch)).rejects.toThrow(/Lost the writer lock/);
  });
});
