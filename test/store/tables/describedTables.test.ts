import { expect, test } from "vitest";
import {
  BLOCKS,
  LIQUIDITY_EVENTS,
  PAIRS,
  POOL_EVENTS,
  REJECTED_PAIRS,
  RESERVES,
  TOKENS,
  V3_PRICES,
  V3_TICKS,
} from "../../../src/store/tables/describedTables.js";
import type { ColumnType, Table } from "../../../src/store/tables/types.js";
import { describeStores } from "../../support/storeBackends.js";

const DESCRIBED: Table<never>[] = [
  LIQUIDITY_EVENTS,
  POOL_EVENTS,
  PAIRS,
  RESERVES,
  V3_PRICES,
  V3_TICKS,
  TOKENS,
  REJECTED_PAIRS,
  BLOCKS,
];

// A column type as each engine's catalog names it (SQLite keeps exact amounts as TEXT).
const SQLITE_TYPE: Record<ColumnType, string> = {
  text: "TEXT",
  int2: "INTEGER",
  int4: "INTEGER",
  int8: "INTEGER",
  numeric: "TEXT",
  bool: "INTEGER",
};
const POSTGRES_TYPE: Record<ColumnType, string> = {
  text: "text",
  int2: "smallint",
  int4: "integer",
  int8: "bigint",
  numeric: "numeric",
  bool: "boolean",
};

describeStores("described tables", ({ backend, open }) => {
  test("behavior: each description's columns are its migrated table's (after network), in order and of their type", async () => {
    const db = backend.newDatabase();
    // In memory, nothing outlives the store to look at; the file and PostgreSQL backends check.
    if (db.query === undefined) return;
    await open(db).migrate();
    const sqlite = backend.name.startsWith("sqlite");
    for (const table of DESCRIBED) {
      const rows = sqlite
        ? await db.query(`SELECT name, type FROM pragma_table_info('${table.name}') ORDER BY cid`)
        : await db.query(
            `SELECT column_name AS name, data_type AS type FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
            [table.name],
          );
      const described = table.columns.map(
        (c) => `${c.name} ${(sqlite ? SQLITE_TYPE : POSTGRES_TYPE)[c.type]}`,
      );
      expect(
        rows.map((row) => `${row.name} ${row.type}`),
        table.name,
      ).toEqual([`network ${sqlite ? "TEXT" : "text"}`, ...described]);
    }
  });
});
