import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import postgres from "postgres";
import { afterAll, beforeAll, describe, test } from "vitest";
import type { Pair, Trade, V3PoolPrice } from "../../src/domain/types.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import { registerBigFunctions } from "../../src/store/sqlite/registerBigFunctions.js";
import { registerStatsFunctions } from "../../src/store/sqlite/registerStatsFunctions.js";
import type { Store } from "../../src/store/types.js";
import { PG_SHOWN, PG_URL, pgAvailable, pgReachable } from "./testStores.js";

// The store suite runs every test against three backends: SQLite in memory, SQLite in a file
// (two stores can share it) and PostgreSQL (a schema per database, unless unreachable outside CI).

const PG_SKIP = !pgAvailable;

/** One database the suite can open stores on (two stores on one database for the concurrency checks). */
export interface TestDatabase {
  open(): Store;
  /**
   * Writes a version-1 store (migration 1 only) holding these trades, as an older release left it;
   * undefined where nothing outlives the store (SQLite in memory).
   */
  seedV1?(trades: Trade[]): Promise<void>;
  /** Writes a version-4 store (migrations 1 to 4) holding these candle rows, as release 4 left it. */
  seedV4Candles?(rows: V4Candle[]): Promise<void>;
  /** Writes a version-5 store (migrations 1 to 5) holding these pairs, as release 5 left it. */
  seedV5Pairs?(pairs: Pair[]): Promise<void>;
  /** Writes a version-7 store (migrations 1 to 7) holding these trades (no marks), as release 7 left it. */
  seedV7Trades?(trades: Trade[]): Promise<void>;
  /** Writes a version-8 store holding these V3 pools and price rows (no balances, no creation), as release 8 left it. */
  seedV8V3?(pairs: Pair[], prices: V3PoolPrice[]): Promise<void>;
  /**
   * Runs one statement on the database outside any store (rows as the driver gives them; bigints
   * as text to PostgreSQL), after `before` in the same transaction (PostgreSQL only: SET LOCAL).
   * undefined where nothing outlives the store.
   */
  query?(text: string, params?: readonly unknown[], before?: string): Promise<Record<string, unknown>[]>;
}

/** A pairs row of schema version 5 (no V3 spec). */
const V5_PAIR_COLUMNS = "network, address, dex, factory, token0, token1, fee_bps";
const v5PairValues = (p: Pair) => ["bsc", p.address, p.dex, p.factory, p.token0, p.token1, p.feeBps] as const;

/** A pairs row and a v3_prices row of schema version 8 (no creation, no balances). */
const V8_PAIR_COLUMNS = "network, address, dex, factory, token0, token1, fee_bps, v3_fee, v3_tick_spacing";
const v8PairValues = (p: Pair) =>
  ["bsc", p.address, p.dex, p.factory, p.token0, p.token1, p.feeBps, p.v3!.fee, p.v3!.tickSpacing] as const;
const V8_PRICE_COLUMNS = "network, pool, block_number, log_index, sqrt_price_x96, tick, liquidity";
const v8PriceValues = (p: V3PoolPrice) =>
  [
    "bsc",
    p.pool,
    p.blockNumber,
    p.logIndex,
    p.sqrtPriceX96.toString(),
    p.tick,
    p.liquidity.toString(),
  ] as const;

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

/** A trades row of schema version 7: version 1's columns and the log index. */
const V7_TRADE_COLUMNS = `${V1_TRADE_COLUMNS}, log_index`;

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

/** An SQLite file at `path` migrated to `version` as that release left it (open: the caller closes it). */
function sqliteAtVersion(path: string, version: number): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec(`CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
  for (const migration of MIGRATIONS.slice(0, version)) {
    db.exec(migration.sqlite);
    migration.sqliteAfter?.(db);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(migration.version, migration.name);
  }
  return db;
}

/** A PostgreSQL schema migrated to `version` as that release left it, then `seed` run in it. */
async function postgresAtVersion(
  schema: string,
  version: number,
  seed: (sql: postgres.Sql) => Promise<void>,
): Promise<void> {
  const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE SCHEMA "${schema}"`);
    await sql.unsafe(`SET search_path TO "${schema}"`);
    await sql.unsafe(`CREATE TABLE schema_migrations (
      version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const migration of MIGRATIONS.slice(0, version)) {
      await sql.unsafe(migration.postgres);
      await sql.unsafe("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    }
    await seed(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
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
          const db = sqliteAtVersion(path, 1);
          const insert = db.prepare(`INSERT INTO trades (${V1_TRADE_COLUMNS}) VALUES (${"?, ".repeat(12)}?)`);
          for (const t of trades) {
            const values = v1Values(t);
            insert.run(...values.slice(0, 11), values[11] ? 1 : 0, values[12]);
          }
          db.close();
        },
        async seedV4Candles(rows) {
          const db = sqliteAtVersion(path, 4);
          const insert = db.prepare(
            `INSERT INTO candles (${V4_CANDLE_COLUMNS}) VALUES (${"?, ".repeat(7)}?)`,
          );
          for (const row of rows) insert.run(...v4Values(row));
          db.close();
        },
        async seedV5Pairs(pairs) {
          const db = sqliteAtVersion(path, 5);
          const insert = db.prepare(`INSERT INTO pairs (${V5_PAIR_COLUMNS}) VALUES (${"?, ".repeat(6)}?)`);
          for (const pair of pairs) insert.run(...v5PairValues(pair));
          db.close();
        },
        async seedV7Trades(trades) {
          const db = sqliteAtVersion(path, 7);
          const insert = db.prepare(`INSERT INTO trades (${V7_TRADE_COLUMNS}) VALUES (${"?, ".repeat(13)}?)`);
          for (const t of trades) {
            const values = v1Values(t);
            insert.run(...values.slice(0, 11), values[11] ? 1 : 0, values[12], t.logIndex);
          }
          db.close();
        },
        async seedV8V3(pairs, prices) {
          const db = sqliteAtVersion(path, 8);
          const pair = db.prepare(`INSERT INTO pairs (${V8_PAIR_COLUMNS}) VALUES (${"?, ".repeat(8)}?)`);
          for (const p of pairs) pair.run(...v8PairValues(p));
          const row = db.prepare(`INSERT INTO v3_prices (${V8_PRICE_COLUMNS}) VALUES (${"?, ".repeat(6)}?)`);
          for (const p of prices) row.run(...v8PriceValues(p));
          db.close();
        },
        async query(text, params = []) {
          const db = new Database(path, { readonly: true });
          try {
            db.defaultSafeIntegers(true);
            // What the store's statements call (EXPLAIN QUERY PLAN resolves them too).
            registerBigFunctions(db);
            registerStatsFunctions(db);
            return db.prepare(text).all(...params) as Record<string, unknown>[];
          } finally {
            db.close();
          }
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
          await postgresAtVersion(schema, 1, async (sql) => {
            for (const t of trades) {
              const values = v1Values(t).map((v) => (typeof v === "bigint" ? v.toString() : v));
              await sql.unsafe(
                `INSERT INTO trades (${V1_TRADE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
                values,
              );
            }
          });
        },
        async seedV4Candles(rows) {
          await postgresAtVersion(schema, 4, async (sql) => {
            for (const row of rows) {
              await sql.unsafe(
                `INSERT INTO candles (${V4_CANDLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
                [...v4Values(row)],
              );
            }
          });
        },
        async seedV5Pairs(pairs) {
          await postgresAtVersion(schema, 5, async (sql) => {
            for (const pair of pairs) {
              await sql.unsafe(`INSERT INTO pairs (${V5_PAIR_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
                ...v5PairValues(pair),
              ]);
            }
          });
        },
        async seedV7Trades(trades) {
          await postgresAtVersion(schema, 7, async (sql) => {
            for (const t of trades) {
              const values = v1Values(t).map((v) => (typeof v === "bigint" ? v.toString() : v));
              await sql.unsafe(
                `INSERT INTO trades (${V7_TRADE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
                [...values, t.logIndex],
              );
            }
          });
        },
        async seedV8V3(pairs, prices) {
          await postgresAtVersion(schema, 8, async (sql) => {
            for (const p of pairs) {
              await sql.unsafe(
                `INSERT INTO pairs (${V8_PAIR_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
                [...v8PairValues(p)],
              );
            }
            for (const p of prices) {
              await sql.unsafe(
                `INSERT INTO v3_prices (${V8_PRICE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                v8PriceValues(p).map((v) => (typeof v === "bigint" ? v.toString() : v)),
              );
            }
          });
        },
        async query(text, params = [], before) {
          const sql = postgres(PG_URL, { max: 1, onnotice: () => {}, connection: { search_path: schema } });
          const values = params.map((v) =>
            typeof v === "bigint" ? v.toString() : v,
          ) as postgres.ParameterOrJSON<never>[];
          try {
            return await sql.begin(async (tx) => {
              if (before !== undefined) await tx.unsafe(before);
              return [...(await tx.unsafe(text, values))];
            });
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

/** What a test of the store suite gets from describeStores. */
export interface StoreSuite {
  backend: Backend;
  /** A store on `db`, closed after the suite. */
  open(db: TestDatabase): Store;
  /** A migrated store on a new, empty database. */
  fresh(): Promise<Store>;
}

/** Runs `body`'s tests once per backend (SQLite in memory, SQLite file, PostgreSQL). */
export function describeStores(title: string, body: (suite: StoreSuite) => void): void {
  describe.each([sqliteMemoryBackend(), sqliteFileBackend(), postgresBackend()])(
    `${title}: $name`,
    (backend) => {
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

      body({ backend, open, fresh });
    },
  );
}
