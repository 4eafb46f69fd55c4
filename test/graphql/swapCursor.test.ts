import { describe, expect, test } from "vitest";
import { decodeSwapCursor, encodeSwapCursor, isSwapCursor } from "../../src/api/swapCursor.js";

describe("swapCursor", () => {
  test("behavior: a cursor carries the log index, so two swaps of one transaction have two cursors", () => {
    const first = { timestamp: 1_700_000_000, blockNumber: 12_345_678n, txIndex: 7, logIndex: 31 };
    const second = { ...first, logIndex: 35 };
    expect(encodeSwapCursor(first)).not.toBe(encodeSwapCursor(second));
    expect(decodeSwapCursor(encodeSwapCursor(first))).toEqual(first);
    expect(decodeSwapCursor(encodeSwapCursor(second))).toEqual(second);
  });

  test("behavior: a cursor made before log indexes stands after the whole transaction", () => {
    const old = Buffer.from("1700000000:12345678:7").toString("base64url");
    expect(isSwapCursor(old)).toBe(true);
    expect(decodeSwapCursor(old)).toEqual({
      timestamp: 1_700_000_000,
      blockNumber: 12_345_678n,
      txIndex: 7,
      logIndex: 2 ** 31 - 1,
    });
  });

  test("error: anything else is a 400", () => {
    for (const bad of [
      "",
      "abc",
      Buffer.from("1:2:3:4:5").toString("base64url"),
      Buffer.from("1:2:3:-4").toString("base64url"),
    ]) {
      expect(isSwapCursor(bad)).toBe(false);
      expect(() => decodeSwapCursor(bad)).toThrow("after is not a valid cursor");
    }
  });
});
