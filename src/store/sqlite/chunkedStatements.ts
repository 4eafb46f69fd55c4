import type Database from "better-sqlite3";

/** Rows a multi-row statement writes at once: one statement per 64 rows instead of one per row. */
const CHUNK_ROWS = 64;

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

/**
 * How `total` rows split into statement runs, in order: CHUNK_ROWS at a time, the rest in
 * descending powers of two. A table then prepares at most seven statement shapes, not one per
 * remainder (each write's last chunk would otherwise prepare a statement of its own size).
 */
export function chunkSizes(total: number): number[] {
  const sizes: number[] = [];
  let left = total;
  for (; left >= CHUNK_ROWS; left -= CHUNK_ROWS) sizes.push(CHUNK_ROWS);
  for (let size = CHUNK_ROWS / 2; size >= 1; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}
