import type postgres from "postgres";
import type { ReadPlan, ReadPlanRunner } from "../buildTradeReads.js";
import { pgParams } from "./createPostgresReader.js";

async function drive<T>(on: postgres.Sql | postgres.TransactionSql, plan: () => ReadPlan<T>): Promise<T> {
  const reads = plan();
  for (let next = reads.next(); ; ) {
    if (next.done === true) return next.value;
    const statement = next.value;
    const query = on.unsafe(statement.text, pgParams(statement), { prepare: true });
    next = reads.next(statement.values === true ? await query.values() : await query);
  }
}

/** Runs read plans on PostgreSQL: pages on the page sessions (`pages`), snapshots in a read-only transaction. */
export function createPostgresReadRunner(sql: postgres.Sql, pages: postgres.Sql): ReadPlanRunner {
  return async <T>(plan: () => ReadPlan<T>, on: "pages" | "snapshot" | "plain"): Promise<T> => {
    if (on === "pages") return drive(pages, plan);
    if (on === "plain") return drive(sql, plan);
    // postgres.js types begin's result as its callback's, unwrapped: T here.
    return (await sql.begin("read only", (tx) => drive(tx, plan))) as T;
  };
}
