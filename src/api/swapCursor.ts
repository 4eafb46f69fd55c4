import { BadRequestError } from "../errors.js";

/** Position of a swap in the ascending (blockNumber, txIndex, logIndex) order, with its timestamp to narrow the scan. */
export interface SwapPosition {
  timestamp: number;
  blockNumber: bigint;
  txIndex: number;
  logIndex: number;
}

// timestamp:block:txIndex:logIndex. Cursors made before a transaction could hold several swaps
// have no log index: they stand after the whole transaction, as they did then.
const CURSOR = /^(\d{1,15}):(\d{1,20}):(\d{1,9})(?::(\d{1,9}))?$/;
const WHOLE_TRANSACTION = 2 ** 31 - 1;

/** Encodes a swap's position as an opaque cursor. */
export function encodeSwapCursor(position: SwapPosition): string {
  return Buffer.from(
    `${position.timestamp}:${position.blockNumber}:${position.txIndex}:${position.logIndex}`,
  ).toString("base64url");
}

function matchCursor(cursor: string): RegExpExecArray | null {
  return cursor.length <= 80 ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("latin1")) : null;
}

/** True when `cursor` has the form encodeSwapCursor makes (other layers word their own 400). */
export function isSwapCursor(cursor: string): boolean {
  return matchCursor(cursor) !== null;
}

/** Decodes a cursor made by encodeSwapCursor; throws BadRequestError (400) for anything else. */
export function decodeSwapCursor(cursor: string): SwapPosition {
  const match = matchCursor(cursor);
  if (match === null) {
    throw new BadRequestError("after is not a valid cursor: pass an endCursor or edge cursor from swaps.");
  }
  return {
    timestamp: Number(match[1]),
    blockNumber: BigInt(match[2]!),
    txIndex: Number(match[3]),
    logIndex: match[4] === undefined ? WHOLE_TRANSACTION : Number(match[4]),
  };
}
