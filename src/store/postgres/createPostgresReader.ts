import type postgres from "postgres";
import type { SqlText } from "../buildTradePageSql.js";
import type { TableReader } from "../tables/types.js";

/** Parameters as postgres.js takes them: bigints as decimal text (each statement casts its own). */
export function pgParams(statement: SqlText): (string | number)[] {
  return statement.params.map((value) => (typeof value === "bigint" ? value.toString() : value));
}

/** One session's reads of generated statements, each prepared once per session. */
export function createPostgresReader(sql: postgres.Sql): TableReader {
  return {
    dialect: "postgres",
    async all<Row>(statement: SqlText) {
      return (await sql.unsafe(statement.text, pgParams(statement), { prepare: true })) as unknown as Row[];
    },
  };
}
