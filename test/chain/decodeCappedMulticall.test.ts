import { encodeAbiParameters, type Hex, parseAbiParameters, size, slice } from "viem";
import { describe, expect, test } from "vitest";
import type { CappedCall } from "../../src/chain/decodeCappedMulticall.js";
import { decodeCappedMulticall } from "../../src/chain/decodeCappedMulticall.js";

const ANSWER = parseAbiParameters("(bool success, uint256 size, bytes data)[]");
const TOKEN = "0x00000000000000000000000000000000000c0de1";

function call(maxReturnBytes: number): CappedCall {
  return { to: TOKEN, data: "0x06fdde03", gas: 150_000n, maxReturnBytes };
}

/** What CappedMulticall.sol returns: each answer cut to its cap, with its full size. */
function answer(results: { success: boolean; full: Hex; cap: number }[]): Hex {
  return encodeAbiParameters(ANSWER, [
    results.map(({ success, full, cap }) => ({
      success,
      size: BigInt(size(full)),
      data: size(full) > cap ? slice(full, 0, cap) : full,
    })),
  ]);
}

describe("decodeCappedMulticall", () => {
  test("behavior: a success keeps its answer's first bytes and its full size, a failure is flagged", () => {
    const long = encodeAbiParameters(parseAbiParameters("string"), ["Long".repeat(16_384)]);
    const word = encodeAbiParameters(parseAbiParameters("uint8"), [18]);
    const calls = [call(1088), call(32), call(32), call(1088)];
    const results = decodeCappedMulticall(
      answer([
        { success: true, full: long, cap: 1088 },
        { success: true, full: word, cap: 32 },
        { success: true, full: "0x", cap: 32 },
        { success: false, full: "0x08c379a0", cap: 1088 },
      ]),
      calls,
    );
    expect(results).toEqual([
      { ok: true, data: slice(long, 0, 1088), size: 65_600 },
      { ok: true, data: word, size: 32 },
      { ok: true, data: "0x", size: 0 },
      { ok: false },
    ]);
  });

  test("error: an answer without one result per call is refused", () => {
    const data = answer([{ success: true, full: "0x01", cap: 32 }]);
    expect(() => decodeCappedMulticall(data, [call(32), call(32)])).toThrowErrorMatchingInlineSnapshot(
      `[Error: expected 2 results, got 1]`,
    );
  });

  test("error: a result holding more bytes than its cap, or fewer than its answer had, is refused", () => {
    const long = encodeAbiParameters(parseAbiParameters("string"), ["x".repeat(100)]);
    const over = encodeAbiParameters(ANSWER, [[{ success: true, size: 192n, data: long }]]);
    expect(() => decodeCappedMulticall(over, [call(64)])).toThrowErrorMatchingInlineSnapshot(
      `[Error: result 0 kept 192 of 192 bytes with a cap of 64]`,
    );
    const short = encodeAbiParameters(ANSWER, [[{ success: true, size: 192n, data: slice(long, 0, 32) }]]);
    expect(() => decodeCappedMulticall(short, [call(64)])).toThrowErrorMatchingInlineSnapshot(
      `[Error: result 0 kept 32 of 192 bytes with a cap of 64]`,
    );
  });

  test("error: data that is no ABI answer is refused", () => {
    expect(() => decodeCappedMulticall("0x1234", [call(32)])).toThrow();
  });
});
