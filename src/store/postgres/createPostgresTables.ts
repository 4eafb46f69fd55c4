import type postgres from "postgres";
import type { SqlText } from "../buildTradePageSql.js";
import { lastByKey } from "../rowCodec.js";
import { buildTableMethods } from "../tables/buildTableMethods.js";
import {
  buildDeleteBlocksSql,
  buildDeletePastSql,
  buildInsertSql,
  buildPruneBelowSql,
  postgresArray,
} from "../tables/buildTableSql.js";
import { buildTableSteps } from "../tables/buildTableSteps.js";
import type { Table, TableWriter } from "../tables/types.js";
import { plainArray } from "./arrayLiterals.js";
import { createPostgresReader, pgParams } from "./createPostgresReader.js";
import type { PostgresWrite } from "./postgresWrite.js";

/**
 * The PostgreSQL side of the described tables (see describedTables.ts): each write step one bulk
 * statement whatever its rows, a column per array literal; reads on `sql`, keyset pages on `pages`
 * (see createPostgresStore).
 */
export function createPostgresTables(sql: postgres.Sql, pages: postgres.Sql) {
  const exec = async (tx: postgres.TransactionSql, statement: SqlText): Promise<undefined> => {
    await tx.unsafe(statement.text, pgParams(statement), { prepare: true });
  };
  const insert = async <Item>(
    { tx, network }: PostgresWrite,
    table: Table<Item>,
    given: readonly Item[],
  ): Promise<undefined> => {
    // PostgreSQL refuses an upsert that touches one row twice: the last of a key wins, as on SQLite.
    const { key, columns } = table;
    const keyed = key === undefined ? [] : columns.filter((column) => key.includes(column.name));
    const items =
      key === undefined
        ? given
        : lastByKey(given, (item) => keyed.map((column) => String(column.value(item))).join(":"));
    if (items.length === 0) return;
    const arrays = columns.map((column) => postgresArray(column, items));
    await tx.unsafe(buildInsertSql("postgres", table), [network, ...arrays], { prepare: true });
  };
  const writer: TableWriter<PostgresWrite, Promise<undefined>> = {
    insert,
    async replaceBlocks(write, table, blocks, items) {
      await write.tx.unsafe(buildDeleteBlocksSql("postgres", table), [write.network, plainArray(blocks)], {
        prepare: true,
      });
      await insert(write, table, items);
    },
    deleteAbove: ({ tx, network }, table, blockNumber) =>
      exec(tx, buildDeletePastSql("postgres", table, network, table.block!, ">", blockNumber)),
    deleteBefore: ({ tx, network }, table, bound) =>
      exec(tx, buildDeletePastSql("postgres", table, network, table.before!, "<", bound)),
    pruneBelow: ({ tx, network }, table, blockNumber) =>
      exec(tx, buildPruneBelowSql("postgres", table, network, blockNumber)),
    async writeAlone(network, write) {
      await sql.begin((tx) => write({ tx, network }));
    },
  };
  return {
    steps: buildTableSteps(writer),
    methods: buildTableMethods(writer, createPostgresReader(sql), createPostgresReader(pages)),
  };
}
