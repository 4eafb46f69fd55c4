import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { createRouteCache } from "../../src/pricing/createRouteCache.js";
import { findBestRoute } from "../../src/pricing/findBestRoute.js";
import type { PoolState } from "../../src/pricing/types.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const pool = (n: number, token0: Address, token1: Address, r0: bigint, r1: bigint): PoolState => ({
  address: a(100 + n),
  dex: "dex",
  factory: a(99),
  token0,
  token1,
  feeBps: 30,
  reserve0: r0,
  reserve1: r1,
});

describe("createRouteCache", () => {
  test("behavior: answers like findBestRoute, and again after the pools change", () => {
    const index = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 2n * 10n ** 21n)]);
    const cache = createRouteCache();
    const args = { index, sell: a(1), buy: a(2), amountIn: 10n ** 18n, baseTokens: new Set<Address>() };
    const first = cache.findBestRoute(args);
    expect(first).toEqual(findBestRoute(args));
    expect(cache.findBestRoute(args)).toBe(first);
    index.update(pool(1, a(1), a(2), 10n ** 21n, 3n * 10n ** 21n));
    const second = cache.findBestRoute(args);
    expect(second).not.toBe(first);
    expect(second).toEqual(findBestRoute(args));
    expect(second!.amountOut).toBeGreaterThan(first!.amountOut);
  });

  test("args: other amounts, tokens and graphs are separate entries", () => {
    const one = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 10n ** 21n)]);
    const two = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 5n * 10n ** 21n)]);
    const cache = createRouteCache(2);
    const base = { sell: a(1), buy: a(2), baseTokens: new Set<Address>() };
    const small = cache.findBestRoute({ ...base, index: one, amountIn: 10n ** 18n })!;
    const large = cache.findBestRoute({ ...base, index: one, amountIn: 10n ** 20n })!;
    const other = cache.findBestRoute({ ...base, index: two, amountIn: 10n ** 18n })!;
    expect(large.amountIn).toBe(10n ** 20n);
    expect(other.amountOut).toBeGreaterThan(small.amountOut);
    expect(
      cache.findBestRoute({ ...base, index: one, sell: a(2), buy: a(1), amountIn: 10n ** 18n })!.path,
    ).toEqual([a(2), a(1)]);
  });
});
