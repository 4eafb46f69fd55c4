import { describe, expect, test } from "vitest";
import {
  decodeLiquidityEventCursor,
  encodeLiquidityEventCursor,
} from "../../src/api/liquidityEventCursor.js";
import { encodeSwapCursor } from "../../src/api/swapCursor.js";

describe("liquidityEventCursor", () => {
  test("behavior: a cursor round-trips its position", () => {
    const position = { timestamp: 1_700_000_000, blockNumber: 12_345_678n, logIndex: 31 };
    expect(decodeLiquidityEventCursor(encodeLiquidityEventCursor(position))).toEqual(position);
  });

  test("error: a swap's cursor and anything else is a 400", () => {
    const swap = encodeSwapCursor({ timestamp: 1, blockNumber: 2n, txIndex: 3, logIndex: 4 });
    for (const bad of ["", "abc", swap, Buffer.from("L:1:2:-3").toString("base64url")]) {
      expect(() => decodeLiquidityEventCursor(bad)).toThrow(
        "after is not a valid cursor: pass an endCursor or edge cursor from liquidityEvents.",
      );
    }
  });
});
