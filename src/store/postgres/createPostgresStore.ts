import postgres from "postgres";
import type { NetworkName } from "../../domain/types.js";
import { ConfigError } from "../../errors.js";
import { buildTradeReads } from "../buildTradeReads.js";
import { buildCommitPlan } from "../plan/buildCommitPlan.js";
import { buildPrunePlan } from "../plan/buildPrunePlan.js";
import { buildRollbackPlan } from "../plan/buildRollbackPlan.js";
import { runWritePlan } from "../plan/runWritePlan.js";
import type { AsyncWriteHandlers, WritePlan } from "../plan/writeSteps.js";
import type { Store } from "../types.js";
import { createPostgresCandles } from "./createPostgresCandles.js";
import { createPostgresCursor } from "./createPostgresCursor.js";
import { createPostgresDayVolumes } from "./createPostgresDayVolumes.js";
import { createPostgresReadRunner } from "./createPostgresReadRunner.js";
import { createPostgresTables } from "./createPostgresTables.js";
import { createPostgresTrades } from "./createPostgresTrades.js";
import { createWriterLock } from "./createWriterLock.js";
import { migratePostgres } from "./migratePostgres.js";
import type { PostgresWrite } from "./postgresWrite.js";

export interface PostgresStoreOptions {
  /** A postgres:// connection URL. */
  url: string;
  /** Schema for every table, created by migrate() if missing and set as search_path on every connection. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// Sessions that read keyset pages, at most (a page holds one for a few milliseconds).
const MAX_PAGE_SESSIONS = 4;

/** The production store: PostgreSQL through postgres.js (NUMERIC(78,0) amounts, bulk unnest writes). */
export function createPostgresStore(options: PostgresStoreOptions): Store {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new ConfigError("invalid PostgreSQL schema name", {
      details: `got "${schema}", expected lowercase letters, digits and underscores, not starting with a digit`,
    });
  }
  const searchPath = schema === undefined ? {} : { search_path: schema };
  const sql = postgres(options.url, {
    max: options.max ?? 10,
    // "schema already exists, skipping" and similar notices are expected, not news.
    onnotice: () => {},
    connection: searchPath,
  });
  // Keyset pages (trades, liquidity events) must walk an index in order and stop after `limit`
  // rows. With missing or stale statistics (a new network, a fresh table) or the row-by-row
  // timestamp checks, PostgreSQL underestimates the matching rows and picks a bitmap scan of the
  // whole rest of the window plus a sort instead (measured: 74 ms instead of 0.3 ms at 100k
  // trades). Sessions of their own start with those plans off, so a page needs no transaction to
  // SET LOCAL them: three round trips fewer a page (BEGIN, SET, COMMIT). Opened on first use.
  const pages = postgres(options.url, {
    max: Math.min(options.max ?? 10, MAX_PAGE_SESSIONS),
    onnotice: () => {},
    // Pages read and bind no arrays; the catalog read that finds the array types took 0.4 s
    // on a new session without sequential scans.
    fetch_types: false,
    connection: {
      ...searchPath,
      enable_bitmapscan: "off",
      enable_seqscan: "off",
      default_transaction_read_only: true,
    },
  });

  const lock = createWriterLock(sql, schema);
  const trades = createPostgresTrades(sql);
  const dayVolumes = createPostgresDayVolumes(sql);
  const candles = createPostgresCandles(sql);
  const cursor = createPostgresCursor(sql, lock.assertWriter);
  const tables = createPostgresTables(sql, pages);
  const steps: AsyncWriteHandlers<PostgresWrite> = {
    ...trades.steps,
    ...dayVolumes.steps,
    ...candles.steps,
    ...cursor.steps,
    ...tables.steps,
  };
  // Every write is one plan run in one transaction, refused when the network's writer lock was lost.
  const write = (network: NetworkName, plan: WritePlan) =>
    sql.begin(async (tx) => {
      await lock.assertWriter(tx, network);
      await runWritePlan(plan, steps, { tx, network });
    });

  return {
    kind: "postgres",

    tryAcquireWriter(network) {
      return lock.tryAcquire(network);
    },

    async migrate() {
      await migratePostgres(sql, schema);
    },

    async close() {
      // Ending the sessions releases the writer locks.
      lock.release();
      await Promise.all([sql.end({ timeout: 5 }), pages.end({ timeout: 5 })]);
    },

    async commitRange(network, batch) {
      await write(network, buildCommitPlan(network, batch));
    },

    async rollback(network, ancestor) {
      await write(network, buildRollbackPlan(ancestor));
    },

    async prune(network, opts) {
      await write(network, buildPrunePlan(opts));
    },

    ...trades.methods,
    ...dayVolumes.methods,
    ...candles.methods,
    ...cursor.methods,
    ...tables.methods,
    ...buildTradeReads("postgres", createPostgresReadRunner(sql, pages)),
  };
}
