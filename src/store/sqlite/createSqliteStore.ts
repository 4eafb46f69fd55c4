import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { NetworkName } from "../../domain/types.js";
import { buildTradeReads } from "../buildTradeReads.js";
import { buildCommitPlan } from "../plan/buildCommitPlan.js";
import { buildPrunePlan } from "../plan/buildPrunePlan.js";
import { buildRollbackPlan } from "../plan/buildRollbackPlan.js";
import { runWritePlanSync } from "../plan/runWritePlanSync.js";
import type { WriteHandlers, WritePlan } from "../plan/writeSteps.js";
import type { Store } from "../types.js";
import { createSqliteCandles } from "./createSqliteCandles.js";
import { createSqliteCursor } from "./createSqliteCursor.js";
import { createSqliteDayVolumes } from "./createSqliteDayVolumes.js";
import { createSqliteReadRunner } from "./createSqliteReadRunner.js";
import { createSqliteTables } from "./createSqliteTables.js";
import { createSqliteTrades } from "./createSqliteTrades.js";
import { migrateSqlite } from "./migrateSqlite.js";
import { openSqliteDatabase } from "./openSqliteDatabase.js";
import { registerBigFunctions } from "./registerBigFunctions.js";
import { registerStatsFunctions } from "./registerStatsFunctions.js";

export interface SqliteStoreOptions {
  /** A file path (its directory is created) or ":memory:". */
  path: string;
}

/** The embedded store: SQLite through better-sqlite3 (WAL, synchronous=NORMAL, exact amounts as TEXT). */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const { path } = options;
  if (path !== ":memory:" && path !== "" && !path.startsWith("file:")) {
    mkdirSync(dirname(path), { recursive: true });
  }
  // Opened so that no statement is ever garbage-collected: Node 24.19+ aborts when one is.
  const db = openSqliteDatabase(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // Block numbers and seq may pass 2^53: every INTEGER comes back as a bigint.
  db.defaultSafeIntegers(true);
  registerBigFunctions(db);
  registerStatsFunctions(db);

  const trades = createSqliteTrades(db);
  const dayVolumes = createSqliteDayVolumes(db);
  const candles = createSqliteCandles(db);
  const cursor = createSqliteCursor(db);
  const tables = createSqliteTables(db);
  const steps: WriteHandlers<NetworkName> = {
    ...trades.steps,
    ...dayVolumes.steps,
    ...candles.steps,
    ...cursor.steps,
    ...tables.steps,
  };
  // Every write is one plan run in one IMMEDIATE transaction (the write lock taken first).
  const write = db.transaction((network: NetworkName, plan: WritePlan) =>
    runWritePlanSync(plan, steps, network),
  );

  return {
    kind: "sqlite",

    async migrate() {
      migrateSqlite(db);
    },

    async close() {
      if (db.open) db.close();
    },

    async tryAcquireWriter() {
      return true;
    },

    async commitRange(network, batch) {
      write.immediate(network, buildCommitPlan(network, batch));
    },

    async rollback(network, ancestor) {
      write.immediate(network, buildRollbackPlan(ancestor));
    },

    async prune(network, opts) {
      write.immediate(network, buildPrunePlan(opts));
    },

    ...trades.methods,
    ...dayVolumes.methods,
    ...candles.methods,
    ...cursor.methods,
    ...tables.methods,
    ...buildTradeReads("sqlite", createSqliteReadRunner(db)),
  };
}
