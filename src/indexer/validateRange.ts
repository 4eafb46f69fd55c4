import type { Checkpoint } from "../domain/types.js";
import type { RangeRead } from "./readRange.js";

/**
 * What a read range is worth: `ok`, `reorg` (it does not link to the checkpoint: the stored
 * chain was replaced) or `moved` (the chain changed while the range was read: read it again).
 */
export type RangeValidity = { kind: "ok" } | { kind: "reorg" } | { kind: "moved"; reason: string };

/**
 * Checks a read range the way Ponder's validateLogsAndBlock does, without trusting any single
 * answer: the first block's parent is the checkpoint, consecutive headers link, every log of a
 * block names the same hash and it is the header's, and each sender was read from the block
 * its logs came from. Pure.
 */
export function validateRange(read: RangeRead, checkpoint: Checkpoint): RangeValidity {
  const first = read.headers.get(read.from);
  const last = read.headers.get(read.to);
  if (first === undefined || last === undefined) return { kind: "moved", reason: "range ends not read" };
  if (first.parentHash !== checkpoint.blockHash) return { kind: "reorg" };
  const numbers = [...read.headers.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (let i = 1; i < numbers.length; i++) {
    const prev = read.headers.get(numbers[i - 1]!)!;
    const cur = read.headers.get(numbers[i]!)!;
    if (cur.number === prev.number + 1n && cur.parentHash !== prev.hash) {
      return { kind: "moved", reason: `block ${cur.number} does not link to ${prev.number}` };
    }
  }
  for (const [number, hash] of read.logBlockHashes) {
    if (hash === undefined) return { kind: "moved", reason: `logs of block ${number} name different hashes` };
    const header = read.headers.get(number);
    if (header !== undefined && header.hash !== hash) {
      return { kind: "moved", reason: `logs of block ${number} are from another branch` };
    }
    if (!read.timestamps.has(number)) return { kind: "moved", reason: `no timestamp for block ${number}` };
  }
  for (const event of read.events) {
    if (event.kind !== "swap") continue;
    const sender = read.senders.get(event.txHash);
    if (sender === undefined) return { kind: "moved", reason: `transaction ${event.txHash} not found` };
    if (sender.blockHash !== read.logBlockHashes.get(event.blockNumber)) {
      return { kind: "moved", reason: `transaction ${event.txHash} is in another block` };
    }
  }
  return { kind: "ok" };
}
