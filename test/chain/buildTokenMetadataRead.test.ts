import { encodeAbiParameters, type Hex, parseAbiParameters, size, slice, stringToHex } from "viem";
import { describe, expect, test } from "vitest";
import {
  buildTokenMetadataRead,
  MAX_NAME_LENGTH,
  MAX_SYMBOL_LENGTH,
  METADATA_GAS,
  TEXT_ANSWER_BYTES,
} from "../../src/chain/buildTokenMetadataRead.js";
import type { CappedCallResult } from "../../src/chain/decodeCappedMulticall.js";
import { InvalidTokenMetadataError, NotErc20Error } from "../../src/errors.js";

const TOKEN = "0x00000000000000000000000000000000000c0de1";
const read = buildTokenMetadataRead(TOKEN, "eth");

/** A call's result as the reader gives it: the answer cut to the call's cap, and its full size. */
function ok(full: Hex, cap: number): CappedCallResult {
  return { ok: true, data: size(full) > cap ? slice(full, 0, cap) : full, size: size(full) };
}
const decimals = (value: number) =>
  ok(encodeAbiParameters(parseAbiParameters("uint256"), [BigInt(value)]), 32);
const text = (value: string) =>
  ok(encodeAbiParameters(parseAbiParameters("string"), [value]), TEXT_ANSWER_BYTES);
const failed: CappedCallResult = { ok: false };

function decodeError(results: CappedCallResult[]): Error {
  try {
    read.decode(results);
  } catch (error) {
    return error as Error;
  }
  throw new Error("decoded");
}

describe("buildTokenMetadataRead", () => {
  test("args: decimals(), name() and symbol() of the token, each gas-capped, text cut after the ABI head and 1 KiB", () => {
    expect(read.calls).toEqual([
      { to: TOKEN, data: "0x313ce567", gas: METADATA_GAS, maxReturnBytes: 32 },
      { to: TOKEN, data: "0x06fdde03", gas: METADATA_GAS, maxReturnBytes: 1088 },
      { to: TOKEN, data: "0x95d89b41", gas: METADATA_GAS, maxReturnBytes: 1088 },
    ]);
  });

  test("behavior: text cut by the answer cap decodes from its first bytes", () => {
    const token = read.decode([decimals(18), text("Long".repeat(16_384)), text("Long".repeat(16_384))]);
    expect(token).toEqual({
      address: TOKEN,
      name: `${"Long".repeat(16).slice(0, MAX_NAME_LENGTH - 1)}…`,
      symbol: `${"Long".repeat(8).slice(0, MAX_SYMBOL_LENGTH - 1)}…`,
      decimals: 18,
    });
  });

  test("behavior: a 1 KiB cut inside a character drops that character, never decodes half of it", () => {
    // "a" and 4-byte rockets: the 1,024th byte is the first of the 256th rocket.
    const token = read.decode([decimals(18), text(`a${"🚀".repeat(400)}`), text("R")]);
    expect(token.name).toBe(`a${"🚀".repeat(MAX_NAME_LENGTH - 2)}…`);
    expect(token.name).not.toMatch(/\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u);
  });

  test("behavior: name and symbol keep quotes and markup as their own text", () => {
    expect(read.decode([decimals(18), text(`Pooh's <b>"Honey"</b>`), text("<img src=x>")])).toEqual({
      address: TOKEN,
      name: `Pooh's <b>"Honey"</b>`,
      symbol: "<img src=x>",
      decimals: 18,
    });
  });

  test("behavior: bytes32 name and symbol (MKR-style) decode", () => {
    const token = read.decode([
      decimals(18),
      ok(stringToHex("Maker", { size: 32 }), TEXT_ANSWER_BYTES),
      ok(stringToHex("MKR", { size: 32 }), TEXT_ANSWER_BYTES),
    ]);
    expect(token).toEqual({ address: TOKEN, name: "Maker", symbol: "MKR", decimals: 18 });
  });

  test("behavior: a name that failed or claims more bytes than the answer has is the symbol; such a symbol is empty", () => {
    expect(read.decode([decimals(6), failed, text("USDC")])).toEqual({
      address: TOKEN,
      name: "USDC",
      symbol: "USDC",
      decimals: 6,
    });
    // Offset 32, then a length of 1,000 bytes in an answer of 96 bytes in all.
    const lying = ok(`0x${"20".padStart(64, "0")}${"03e8".padStart(64, "0")}${"41".repeat(32)}`, 1088);
    expect(read.decode([decimals(0), lying, ok("0x", TEXT_ANSWER_BYTES)])).toEqual({
      address: TOKEN,
      name: "",
      symbol: "",
      decimals: 0,
    });
  });

  test("error: decimals() that failed, answered nothing or no uint8 is no ERC-20", () => {
    const cases = [failed, ok("0x", 32), ok("0x12", 32), decimals(256)];
    const errors = cases.map((answer) => decodeError([answer, text("A"), text("A")]));
    expect(errors.every((error) => error instanceof NotErc20Error)).toBe(true);
    expect(errors.map((error) => (error as NotErc20Error).details)).toMatchInlineSnapshot(`
      [
        "decimals() reverted or ran out of its 150000 gas",
        "decimals() returned nothing: no contract code or no decimals()",
        "decimals() returned no uint8",
        "decimals() returned no uint8",
      ]
    `);
  });

  test("error: decimals() 37 to 255 is refused as invalid metadata", () => {
    const error = decodeError([decimals(37), text("A"), text("A")]);
    expect(error).toBeInstanceOf(InvalidTokenMetadataError);
    expect(error.message).toMatchInlineSnapshot(
      `"Token 0x00000000000000000000000000000000000c0de1 on eth is not supported: its decimals() is 37, expected 0 to 36."`,
    );
  });
});
