import type Database from "better-sqlite3";
import type { NetworkName } from "../../domain/types.js";
import type { SqlText } from "../buildTradePageSql.js";
import { buildTableMethods } from "../tables/buildTableMethods.js";
import {
  buildDeleteBlocksSql,
  buildDeletePastSql,
  buildInsertSql,
  buildPruneBelowSql,
  sqliteValue,
} from "../tables/buildTableSql.js";
import { buildTableSteps } from "../tables/buildTableSteps.js";
import type { Table, TableReader, TableWriter } from "../tables/types.js";
import { createStatementCache } from "./createStatementCache.js";

/**
 * The SQLite side of the described tables (see describedTables.ts): each write a statement run per
 * row or per block, inside the commit's one transaction; every statement prepared on first use
 * (after migrate() created the tables) and kept.
 */
export function createSqliteTables(db: Database.Database) {
  const prepared = createStatementCache(db);
  const run = (statement: SqlText) => {
    prepared(statement.text).run(...statement.params);
  };
  // The generated text of a table's insert and block delete, made once per table.
  const texts = new Map<Table<never>, { insert: string; deleteBlock: string }>();
  const textsOf = (table: Table<never>) => {
    let found = texts.get(table);
    if (found === undefined) {
      found = { insert: buildInsertSql("sqlite", table), deleteBlock: buildDeleteBlocksSql("sqlite", table) };
      texts.set(table, found);
    }
    return found;
  };
  const insert = <Item>(network: NetworkName, table: Table<Item>, items: readonly Item[]): undefined => {
    const statement = prepared(textsOf(table).insert);
    const { columns } = table;
    for (const item of items) {
      statement.run(network, ...columns.map((column) => sqliteValue(column, column.value(item))));
    }
  };
  const alone = db.transaction((write: (network: NetworkName) => void, network: NetworkName) =>
    write(network),
  );
  const writer: TableWriter<NetworkName, undefined> = {
    insert,
    replaceBlocks(network, table, blocks, items) {
      const deleteBlock = prepared(textsOf(table).deleteBlock);
      for (const block of blocks) deleteBlock.run(network, block);
      insert(network, table, items);
    },
    deleteAbove(network, table, blockNumber) {
      run(buildDeletePastSql("sqlite", table, network, table.block!, ">", blockNumber));
    },
    deleteBefore(network, table, bound) {
      run(buildDeletePastSql("sqlite", table, network, table.before!, "<", bound));
    },
    pruneBelow(network, table, blockNumber) {
      run(buildPruneBelowSql("sqlite", table, network, blockNumber));
    },
    async writeAlone(network, write) {
      alone.immediate(write, network);
    },
  };
  const read: TableReader = {
    dialect: "sqlite",
    async all<Row>(statement: SqlText) {
      return prepared<Row>(statement.text).all(...statement.params);
    },
  };
  return { steps: buildTableSteps(writer), methods: buildTableMethods(writer, read, read) };
}
