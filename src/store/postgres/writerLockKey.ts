import type { NetworkName } from "../../domain/types.js";

/** Class key of the session-level advisory lock of a network's single indexer (writer). */
export const WRITER_LOCK = 0x73777772;

/** A non-negative int4 from a string (FNV-1a), so pg_locks.objid can be compared directly. */
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 1) & 0x7fffffff;
}

/** The pg_locks (classid, objid) of a network's writer lock: for operators' queries and tests. */
export function writerLockKey(
  schema: string | undefined,
  network: NetworkName,
): { classid: number; objid: number } {
  return { classid: WRITER_LOCK, objid: lockKey(`${schema ?? ""}:${network}`) };
}
