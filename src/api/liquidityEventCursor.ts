import { BadRequestError } from "../errors.js";

/** Position of a liquidity event in the ascending (blockNumber, logIndex) order, with its timestamp to narrow the scan. */
export interface LiquidityEventCursorPosition {
  timestamp: number;
  blockNumber: bigint;
  logIndex: number;
}

// "L:timestamp:block:logIndex": the prefix keeps a swap's cursor (timestamp:block:tx:log) from
// passing for one, which would silently page from another order.
const CURSOR = /^L:(\d{1,15}):(\d{1,20}):(\d{1,9})$/;

/** Encodes a liquidity event's position as an opaque cursor. */
export function encodeLiquidityEventCursor(position: LiquidityEventCursorPosition): string {
  return Buffer.from(`L:${position.timestamp}:${position.blockNumber}:${position.logIndex}`).toString(
    "base64url",
  );
}

/** Decodes a cursor made by encodeLiquidityEventCursor; throws BadRequestError (400) for anything else. */
export function decodeLiquidityEventCursor(cursor: string): LiquidityEventCursorPosition {
  const match = cursor.length <= 80 ? CURSOR.exec(Buffer.from(cursor, "base64url").toString("latin1")) : null;
  if (match === null) {
    throw new BadRequestError(
      "after is not a valid cursor: pass an endCursor or edge cursor from liquidityEvents.",
    );
  }
  return { timestamp: Number(match[1]), blockNumber: BigInt(match[2]!), logIndex: Number(match[3]) };
}
