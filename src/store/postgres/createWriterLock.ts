import type postgres from "postgres";
import type { NetworkName } from "../../domain/types.js";
import { LostWriterLockError } from "../../errors.js";
import { WRITER_LOCK, writerLockKey } from "./writerLockKey.js";

/** The writer locks a PostgreSQL store takes for its networks (see Store.tryAcquireWriter). */
export interface WriterLock {
  tryAcquire(network: NetworkName): Promise<boolean>;
  /** Throws LostWriterLockError when this store held the network's lock and lost it. */
  assertWriter(tx: postgres.TransactionSql, network: NetworkName): Promise<void>;
  /** Forgets the locks and hands the lock session back to the pool (closing the pool ends it). */
  release(): void;
}

/**
 * The writer locks of all networks live on one reserved session for the life of the store: if
 * that session dies, PostgreSQL drops the locks and every write refuses to commit (fencing).
 */
export function createWriterLock(sql: postgres.Sql, schema: string | undefined): WriterLock {
  let lockSession: { session: postgres.ReservedSql; pid: number } | undefined;
  // Each held network with the backend pid of the session that took its lock: a write checks that
  // very pid, so a lock taken on a session since replaced is never mistaken for a live one.
  const held = new Map<NetworkName, number>();
  const writerKey = (network: NetworkName) => writerLockKey(schema, network).objid;

  // Networks whose lock this store held and lost: their writes are refused until it is taken again.
  const lost = new Set<NetworkName>();

  /** Forgets a failed lock session: its locks count as lost, and it unlocks what it may still hold. */
  function dropLockSession(): void {
    for (const name of held.keys()) lost.add(name);
    held.clear();
    const dropped = lockSession;
    lockSession = undefined;
    if (dropped === undefined) return;
    // A session that failed for another reason than dying must not keep locks nobody tracks.
    void dropped.session`SELECT pg_advisory_unlock_all()`
      .catch(() => undefined)
      .finally(() => dropped.session.release());
  }

  async function acquire(network: NetworkName): Promise<boolean> {
    if (held.has(network)) return true;
    try {
      if (lockSession === undefined) {
        const session = await sql.reserve();
        try {
          const [row] = await session<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          lockSession = { session, pid: row!.pid };
        } catch (error) {
          session.release();
          throw error;
        }
      }
      const { session, pid } = lockSession;
      const [row] = await session<{ locked: boolean }[]>`
        SELECT pg_try_advisory_lock(${WRITER_LOCK}::int4, ${writerKey(network)}::int4) AS locked`;
      if (row?.locked !== true) return false;
      held.set(network, pid);
      lost.delete(network);
      return true;
    } catch (error) {
      // The lock session died: every lock it held is gone; the next try opens a new one.
      dropLockSession();
      throw error;
    }
  }

  // Acquisitions run one at a time: concurrent first calls (one per network) would otherwise each
  // reserve a session, and all but the last would be orphaned with their locks still held.
  let acquiring: Promise<unknown> = Promise.resolve();

  return {
    tryAcquire(network) {
      const result = acquiring.then(() => acquire(network));
      acquiring = result.catch(() => undefined);
      return result;
    },

    async assertWriter(tx, network) {
      if (lost.has(network)) throw new LostWriterLockError(network);
      const pid = held.get(network);
      if (pid === undefined) return;
      const [row] = await tx<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND pid = ${pid}
          AND classid = ${WRITER_LOCK}::oid AND objid = ${writerKey(network)}::oid AND objsubid = 2`;
      if (row?.n !== 1) {
        held.delete(network);
        lost.add(network);
        throw new LostWriterLockError(network);
      }
    },

    release() {
      // The lock session goes back to the pool first: end() would otherwise wait its whole
      // timeout for a reserved connection.
      held.clear();
      lockSession?.session.release();
      lockSession = undefined;
    },
  };
}
