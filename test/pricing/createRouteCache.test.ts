import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { createRouteCache } from "../../src/pricing/createRouteCache.js";
import { findQuoteRoutes } from "../../src/pricing/findQuoteRoutes.js";
import type { PoolState } from "../../src/pricing/types.js";
import { findBestRoute } from "../support/findBestRoute.js";

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
const routeOf = (found: ReturnType<typeof findQuoteRoutes>) =>
  found.kind === "route" ? found.route : undefined;

describe("createRouteCache", () => {
  test("behavior: answers like findQuoteRoutes, and again after the pools change", () => {
    const index = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 2n * 10n ** 21n)]);
    const cache = createRouteCache();
    const args = {
      index,
      sell: a(1),
      buy: a(2),
      amountIn: 10n ** 18n,
      unitAmount: 10n ** 18n,
      baseTokens: new Set<Address>(),
    };
    const first = cache.findQuoteRoutes(args);
    expect(first).toEqual(findQuoteRoutes(args));
    expect(routeOf(first)).toEqual(findBestRoute(args));
    expect(cache.findQuoteRoutes(args)).toBe(first);
    index.update(pool(1, a(1), a(2), 10n ** 21n, 3n * 10n ** 21n));
    const second = cache.findQuoteRoutes(args);
    expect(second).not.toBe(first);
    expect(second).toEqual(findQuoteRoutes(args));
    expect(routeOf(second)!.amountOut).toBeGreaterThan(routeOf(first)!.amountOut);
  });

  test("args: other amounts, tokens and graphs are separate entries", () => {
    const one = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 10n ** 21n)]);
    const two = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 5n * 10n ** 21n)]);
    const cache = createRouteCache(2);
    const base = { sell: a(1), buy: a(2), unitAmount: 10n ** 18n, baseTokens: new Set<Address>() };
    const small = routeOf(cache.findQuoteRoutes({ ...base, index: one, amountIn: 10n ** 18n }))!;
    const large = routeOf(cache.findQuoteRoutes({ ...base, index: one, amountIn: 10n ** 20n }))!;
    const other = routeOf(cache.findQuoteRoutes({ ...base, index: two, amountIn: 10n ** 18n }))!;
    expect(large.amountIn).toBe(10n ** 20n);
    expect(other.amountOut).toBeGreaterThan(small.amountOut);
    expect(
      routeOf(cache.findQuoteRoutes({ ...base, index: one, sell: a(2), buy: a(1), amountIn: 10n ** 18n }))!
        .path,
    ).toEqual([a(2), a(1)]);
  });

  test("behavior: bounded by bytes: past maxBytes the least recently used routes are recomputed", () => {
    const index = createPoolIndex([pool(1, a(1), a(2), 10n ** 21n, 10n ** 21n)]);
    // Room for one entry: ~670 bytes as the cache counts it, ~1,000 with a unit route of its own.
    const cache = createRouteCache(10_000, 1_200);
    const base = { index, sell: a(1), buy: a(2), unitAmount: 10n ** 18n, baseTokens: new Set<Address>() };
    const small = cache.findQuoteRoutes({ ...base, amountIn: 10n ** 18n });
    expect(cache.findQuoteRoutes({ ...base, amountIn: 10n ** 18n })).toBe(small);
    const large = cache.findQuoteRoutes({ ...base, amountIn: 10n ** 20n });
    expect(cache.findQuoteRoutes({ ...base, amountIn: 10n ** 20n })).toBe(large);
    const again = cache.findQuoteRoutes({ ...base, amountIn: 10n ** 18n });
    expect(again).not.toBe(small);
    expect(again).toEqual(small);
  });
});
