import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";

/** The PostgreSQL the tests use; required (never skipped) when CI=true. */
export const PG_URL = process.env.DATABASE_TEST_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A store backend for tests that run the real path on both SQLite and PostgreSQL. */
export interface TestStore {
  name: string;
  /** A migrated, empty store. */
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** The URL as shown in messages: without its password. */
export const PG_SHOWN = PG_URL.replace(/:[^:@/]*@/, ":***@");
export const pgReachable = await reachable(PG_URL);
/** False only when PostgreSQL is unreachable outside CI; under CI=true its tests run (and fail) regardless. */
export const pgAvailable = pgReachable || process.env.CI === "true";
if (!pgAvailable) {
  console.warn(`PostgreSQL unreachable at ${PG_SHOWN}: skipping its tests here (required when CI=true).`);
}

/** SQLite in memory, and PostgreSQL in a fresh schema (unless unreachable outside CI). */
export function createTestStores(): TestStore[] {
  const stores: TestStore[] = [
    {
      name: "sqlite",
      async open() {
        const store = createSqliteStore({ path: ":memory:" });
        await store.migrate();
        return store;
      },
      async cleanup() {},
    },
  ];
  if (pgAvailable) {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    stores.push({
      name: "postgres",
      async open() {
        const store = createPostgresStore({ url: PG_URL, schema });
        await store.migrate();
        return store;
      },
      async cleanup() {
        const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
        await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await sql.end({ timeout: 1 });
      },
    });
  }
  return stores;
}
