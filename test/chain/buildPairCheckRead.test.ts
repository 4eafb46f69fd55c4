import { type Address, encodeAbiParameters, type Hex, parseAbiParameters, size, zeroAddress } from "viem";
import { describe, expect, test } from "vitest";
import { buildPairCheckRead } from "../../src/chain/buildPairCheckRead.js";
import type { CappedCallResult } from "../../src/chain/decodeCappedMulticall.js";

const PAIR: Address = "0x00000000000000000000000000000000000fa1e0";
const FACTORY: Address = "0x00000000000000000000000000000000000fac01";
const OTHER_FACTORY: Address = "0x00000000000000000000000000000000000fac02";
const TOKEN: Address = "0x00000000000000000000000000000000000000b2";
const BASE: Address = "0x00000000000000000000000000000000000000a1";
const FACTORIES = [
  { name: "uniswap-v2", factory: FACTORY, feeBps: 30 },
  { name: "sushiswap", factory: OTHER_FACTORY, feeBps: 30 },
];
const read = buildPairCheckRead(PAIR, { factory: FACTORY, tokenA: TOKEN, tokenB: BASE }, FACTORIES);

const ok = (full: Hex): CappedCallResult => ({ ok: true, data: full, size: size(full) });
const address = (value: Address) => ok(encodeAbiParameters(parseAbiParameters("address"), [value]));
const reserves = ok(encodeAbiParameters(parseAbiParameters("uint112, uint112, uint32"), [5n, 7n, 1]));
const empty = ok("0x");

/** Results in the read's order: token0, token1, factory, getReserves, factory.getPair(sorted). */
function decode(
  answers: Partial<Record<"token0" | "token1" | "factory" | "reserves" | "registered", CappedCallResult>>,
) {
  return read.decode([
    answers.token0 ?? address(BASE),
    answers.token1 ?? address(TOKEN),
    answers.factory ?? address(FACTORY),
    answers.reserves ?? reserves,
    answers.registered ?? address(PAIR),
  ]);
}

describe("buildPairCheckRead", () => {
  test("args: the pool's getters and getReserves, and getPair of the factory that found it, for the sorted tokens", () => {
    expect(read.calls.map((call) => [call.to, call.data.slice(0, 10), call.maxReturnBytes])).toEqual([
      [PAIR, "0x0dfe1681", 32],
      [PAIR, "0xd21220a7", 32],
      [PAIR, "0xc45a0155", 32],
      [PAIR, "0x0902f1ac", 96],
      [FACTORY, "0xe6a43905", 32],
    ]);
    expect(read.calls[4]!.data.slice(10)).toBe(
      encodeAbiParameters(parseAbiParameters("address, address"), [BASE, TOKEN]).slice(2),
    );
  });

  test("behavior: a genuine pair of a configured factory is accepted with its reserves", () => {
    expect(decode({})).toEqual({
      kind: "pair",
      pair: { address: PAIR, dex: "uniswap-v2", factory: FACTORY, token0: BASE, token1: TOKEN, feeBps: 30 },
      reserves: { reserve0: 5n, reserve1: 7n },
    });
    expect(decode({ reserves: { ok: false } })).toMatchObject({ kind: "pair", reserves: undefined });
  });

  test("behavior: what readPairInfo refuses is refused: unreadable or equal tokens, an unknown factory, a factory that does not name it", () => {
    expect(decode({ token0: { ok: false } })).toEqual({ kind: "refused" });
    expect(decode({ token1: address(BASE) })).toEqual({ kind: "refused" });
    expect(decode({ factory: address("0x00000000000000000000000000000000000fac03") })).toEqual({
      kind: "refused",
    });
    expect(decode({ registered: address(zeroAddress) })).toEqual({ kind: "refused" });
  });

  test("behavior: no code at the block, or claims this read did not ask getPair about, cannot be settled here", () => {
    expect(decode({ token0: empty, token1: empty, factory: empty, reserves: empty })).toEqual({
      kind: "unknown",
    });
    expect(decode({ token0: address(TOKEN), token1: address(BASE) })).toEqual({ kind: "unknown" });
    expect(decode({ factory: address(OTHER_FACTORY) })).toEqual({ kind: "unknown" });
  });
});
