import type Database from "better-sqlite3";

/** Rows a multi-row statement writes at once: one statement per 64 rows instead of one per row. */
export const CHUNK_ROWS = 64;

/**
 * A statement per row count (1..CHUNK_ROWS) of `build(values)`, `values` being that many rows of
 * `columns` placeholders, each prepared on first use.
 */
export function chunkedStatements(
  db: Database.Database,
  build: (values: string) => string,
  columns: number,
): (rows: number) => Database.Statement<unknown[]> {
  const prepared = new Map<number, Database.Statement<unknown[]>>();
  const row = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return (rows) => {
    let statement = prepared.get(rows);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(build(Array.from({ length: rows }, () => row).join(", ")));
      prepared.set(rows, statement);
    }
    return statement;
  };
}
