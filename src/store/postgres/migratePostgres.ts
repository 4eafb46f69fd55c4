import type postgres from "postgres";
import { MIGRATIONS } from "../migrations.js";

/** First key of the two-key advisory lock that serialises migrations ("swgr"); the second is the schema. */
const MIGRATION_LOCK = 0x73776772;

/** Applies the migrations a PostgreSQL schema lacks (creating the schema), in one transaction. */
export async function migratePostgres(sql: postgres.Sql, schema: string | undefined): Promise<void> {
  await sql.begin(async (tx) => {
    // Taken before anything else: two processes starting at once must not both create tables.
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK}::int4, hashtext(${schema ?? ""}))`;
    if (schema !== undefined) await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int4 PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const rows = await tx<{ version: number }[]>`SELECT version FROM schema_migrations`;
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await tx.unsafe(migration.postgres);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
    }
  });
}
