import type Database from "better-sqlite3";

/** Prepares a statement of `text` once and hands back the same one after (see createStatementCache). */
export type StatementCache = <Row = unknown>(
  text: string,
  raw?: boolean,
) => Database.Statement<unknown[], Row>;

/**
 * Statements whose text varies with the filters or windows asked (a handful of shapes per reader),
 * each prepared on first use: preparing costs more than running a small page. A raw statement
 * returns each row as an array of its values.
 */
export function createStatementCache(db: Database.Database): StatementCache {
  const statements = new Map<string, Database.Statement<unknown[], unknown>>();
  return <Row = unknown>(text: string, raw = false) => {
    const key = raw ? `raw\n${text}` : text;
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = db.prepare<unknown[], unknown>(text);
      if (raw) statement.raw(true);
      statements.set(key, statement);
    }
    return statement as Database.Statement<unknown[], Row>;
  };
}
