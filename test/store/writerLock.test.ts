import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, describe, expect, test } from "vitest";
import type { Hash } from "../../src/domain/types.js";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import { writerLockKey } from "../../src/store/postgres/writerLockKey.js";
import type { Store } from "../../src/store/types.js";
import { hash, makeBatch, makeTrade } from "../support/storeFixtures.js";
import { PG_URL, pgAvailable } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";

describe.skipIf(!pgAvailable)("store: postgres writer lock", () => {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  // Lock keys include the schema: tests on their own schema never meet each other's locks.
  const otherSchema = `t_${randomBytes(6).toString("hex")}`;
  const opened: Store[] = [];
  const open = (inSchema = schema) => {
    const store = createPostgresStore({ url: PG_URL, schema: inSchema });
    opened.push(store);
    return store;
  };

  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${otherSchema} CASCADE`);
    await sql.end({ timeout: 1 });
  });

  test("behavior: networks acquiring at once share one lock session; closing the store frees them all", async () => {
    const a = open(otherSchema);
    const b = open(otherSchema);
    await a.migrate();
    const networks = ["bsc", "eth", "polygon"] as const;
    expect(await Promise.all(networks.map((n) => a.tryAcquireWriter(n)))).toEqual([true, true, true]);

    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    const holders = async () => {
      const keys = networks.map((n) => writerLockKey(otherSchema, n).objid);
      const rows = await admin<{ pid: number }[]>`SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${writerLockKey(otherSchema, "bsc").classid}::oid
          AND objid::int8 = ANY(${`{${keys.join(",")}}`}::int8[])`;
      return rows.map((row) => row.pid);
    };
    try {
      // One session holds the three locks: none is left on an orphaned session.
      const pids = await holders();
      expect(pids).toHaveLength(3);
      expect(new Set(pids).size).toBe(1);

      for (const [i, network] of networks.entries()) {
        const blockNumber = BigInt(10 + i);
        await a.commitRange(network, makeBatch([makeTrade(i, blockNumber, { network })], [blockNumber]));
        await a.saveHead(network, { headBlock: blockNumber, checkedAt: 1, syncedAt: 1 });
        expect(await b.getCheckpoint(network)).toEqual({ blockNumber, blockHash: hash(blockNumber) });
      }
      expect(await Promise.all(networks.map((n) => b.tryAcquireWriter(n)))).toEqual([false, false, false]);

      await a.close();
      // The server drops the locks when the backend exits, just after the client disconnects.
      await waitFor(async () => (await holders()).length === 0, 10_000, "the closed store's locks to go");
      expect(await Promise.all(networks.map((n) => b.tryAcquireWriter(n)))).toEqual([true, true, true]);
      await b.commitRange("polygon", makeBatch([], [20n]));
      expect((await b.getCheckpoint("polygon"))?.blockNumber).toBe(20n);
    } finally {
      await admin.end({ timeout: 1 });
    }
  });

  test("behavior: one writer per network; a lost lock refuses writes until the lock is taken again", async () => {
    const a = open();
    const b = open();
    await a.migrate();
    expect(await a.tryAcquireWriter("bsc")).toBe(true);
    expect(await a.tryAcquireWriter("bsc")).toBe(true);
    expect(await b.tryAcquireWriter("bsc")).toBe(false);
    expect(await b.tryAcquireWriter("eth")).toBe(true);
    const batch = {
      checkpoint: { blockNumber: 5n, blockHash: `0x${"11".repeat(32)}` as Hash },
      blocks: [],
      pairs: [],
      reserves: [],
      trades: [],
    };
    await a.commitRange("bsc", batch);

    // The lock session dies (a network blip, a killed backend): PostgreSQL drops its locks.
    const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
    const key = writerLockKey(schema, "bsc");
    const killed = await admin`SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = ${key.classid}::oid AND objid = ${key.objid}::oid`;
    expect(killed).toHaveLength(1);
    // pg_terminate_backend only signals: the lock goes when the backend has exited.
    await waitFor(async () => {
      const held = await admin`SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND classid = ${key.classid}::oid AND objid = ${key.objid}::oid`;
      return held.length === 0;
    }, 10_000);
    await admin.end({ timeout: 1 });

    await expect(
      a.commitRange("bsc", { ...batch, checkpoint: { ...batch.checkpoint, blockNumber: 6n } }),
    ).rejects.toThrow("Lost the writer lock of bsc: the write was refused.");
    expect((await b.getCheckpoint("bsc"))?.blockNumber).toBe(5n);
    // The lock is free again: the other store takes it and writes.
    expect(await b.tryAcquireWriter("bsc")).toBe(true);
    await b.commitRange("bsc", { ...batch, checkpoint: { ...batch.checkpoint, blockNumber: 7n } });
    expect((await b.getCheckpoint("bsc"))?.blockNumber).toBe(7n);
    // Still refused for the store that lost it.
    await expect(a.commitRange("bsc", batch)).rejects.toThrow(/Lost the writer lock/);
  });
});
