import type Database from "better-sqlite3";
import type { ReadPlanRunner } from "../buildTradeReads.js";
import { createStatementCache } from "./createStatementCache.js";

/**
 * Runs read plans on SQLite: every statement of a plan at once, so no write lands between them;
 * a handful of statement shapes per read (per filter, subject kind, window count), each prepared once.
 */
export function createSqliteReadRunner(db: Database.Database): ReadPlanRunner {
  const prepared = createStatementCache(db);
  return async (plan) => {
    const reads = plan();
    for (let next = reads.next(); ; ) {
      if (next.done === true) return next.value;
      const { text, params, values } = next.value;
      next = reads.next(prepared(text, values === true).all(...params));
    }
  };
}
