/**
 * A child process for test/e2e/sqliteLifetime.test.ts: opens, reads and closes SQLite stores in a
 * loop while allocating garbage, so the collector runs often and at any point of the event loop,
 * then ends on its own. On Node 24.19+ with a from-source better-sqlite3, a collected statement
 * aborts the process (openSqliteDatabase explains); this must exit 0.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";

const rounds = Number(process.argv[2] ?? "40");
const dir = mkdtempSync(join(tmpdir(), "swapgraph-churn-"));
let garbage = 0;
for (let round = 0; round < rounds; round++) {
  const store = createSqliteStore({ path: join(dir, `round-${round % 4}.sqlite`) });
  await store.migrate();
  await store.listTradePage("bsc", { fromTimestamp: 0, limit: 100 });
  await store.getCheckpoint("bsc");
  await store.close();
  // Garbage between the rounds, across timer turns: the collector runs outside any JS call too.
  for (let turn = 0; turn < 5; turn++) {
    const junk: { i: number; text: string }[] = [];
    for (let i = 0; i < 50_000; i++) junk.push({ i, text: `x${i}` });
    garbage += junk.length;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`churned ${rounds} stores, ${garbage} objects\n`);
