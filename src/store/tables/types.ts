import type { NetworkName } from "../../domain/types.js";
import type { SqlDialect, SqlText } from "../buildTradePageSql.js";

/**
 * A column's type as PostgreSQL declares it. SQLite keeps int2/int4/int8 as INTEGER, bool as 0/1
 * and numeric as decimal TEXT (exact amounts); PostgreSQL binds each as its own type.
 */
export type ColumnType = "text" | "int2" | "int4" | "int8" | "numeric" | "bool";

/** What a column holds for one item written: undefined writes NULL. */
type ColumnValue = string | number | bigint | boolean | undefined;

export interface Column<Item> {
  name: string;
  type: ColumnType;
  /** The column's value for an item written. */
  value: (item: Item) => ColumnValue;
}

/**
 * One table, described once for both engines: its columns (after `network`, which every table
 * leads with) with the value each takes from an item written, and what the generated statements
 * need (see buildTableSql.ts). A new table is a description and a migration per engine.
 */
export interface Table<Item> {
  name: string;
  columns: readonly Column<Item>[];
  /**
   * The primary key after network, for an upsert: a stored key takes the new row's other columns
   * (or `update`'s expressions). Without it an insert of a stored key fails on the key.
   */
  key?: readonly string[];
  /** A column's value on conflict, as SQL over `excluded.<column>` and the stored row (`<table>.<column>`). */
  update?: Readonly<Record<string, string>>;
  /** The column of the block a row belongs to (reorg rollback deletes the rows above the ancestor). */
  block?: string;
  /** The int8 column prune compares with its bound: rows below it go. */
  before?: string;
  /**
   * Rows of one series (these columns) read as "the newest at or below a block": prune keeps each
   * series' newest row below its line and drops the older ones.
   */
  series?: {
    columns: readonly string[];
    /** The replacing row must be at or below the line too (so the state at every block from there on reads the same). */
    newerAtOrBelow: boolean;
    /** A numeric column whose 0 means the series is gone: such rows below the line go even when newest. */
    goneWhenZero?: string;
  };
}

/**
 * One engine's writes of described tables, inside a write's transaction: `Done` is what a step
 * hands back (nothing for SQLite's synchronous statements, a promise for PostgreSQL's).
 */
export interface TableWriter<Context, Done> {
  /** Inserts the items, or upserts them on a table with a key (of items sharing a key the last wins). */
  insert<Item>(context: Context, table: Table<Item>, items: readonly Item[]): Done;
  /** Deletes every row of these blocks, then inserts the items (whose blocks are among them). */
  replaceBlocks<Item>(
    context: Context,
    table: Table<Item>,
    blocks: readonly bigint[],
    items: readonly Item[],
  ): Done;
  /** Deletes the rows above a block. */
  deleteAbove<Item>(context: Context, table: Table<Item>, blockNumber: bigint): Done;
  /** Deletes the rows whose `before` column is below the bound. */
  deleteBefore<Item>(context: Context, table: Table<Item>, bound: number | bigint): Done;
  /** Deletes the rows below a block that a newer row of their series replaces (see Table.series). */
  pruneBelow<Item>(context: Context, table: Table<Item>, blockNumber: bigint): Done;
  /** Runs `write` in a transaction of its own (writes outside ranges, such as token metadata). */
  writeAlone(network: NetworkName, write: (context: Context) => Done): Promise<void>;
}

/** One engine's reads of generated statements (rows as its driver returns them: see rowCodec.ts). */
export interface TableReader {
  dialect: SqlDialect;
  all<Row>(statement: SqlText): Promise<Row[]>;
}
