import type Database from "better-sqlite3";
import { MIGRATIONS } from "../migrations.js";

/** Applies the migrations an SQLite database lacks, in one transaction. */
export function migrateSqlite(db: Database.Database): void {
  const migrate = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT`);
    const applied = new Set(
      db
        .prepare<[], { version: bigint }>("SELECT version FROM schema_migrations")
        .all()
        .map((row) => Number(row.version)),
    );
    const record = db.prepare<[number, string, number]>(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
    );
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sqlite);
      migration.sqliteAfter?.(db);
      record.run(migration.version, migration.name, Math.floor(Date.now() / 1000));
    }
  });
  // IMMEDIATE takes the write lock first, so two processes opening one file apply each migration once.
  migrate.immediate();
}
