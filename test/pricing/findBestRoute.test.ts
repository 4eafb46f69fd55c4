import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import type { PoolState } from "../../src/pricing/types.js";
import { findBestRoute } from "../support/findBestRoute.js";
import { addr, DAI, LINK, makePool, UNI, USDC, units, WBTC, WETH } from "./fixtures.js";

const BASES = new Set<Address>([WETH, USDC, DAI, WBTC]);
const E18 = 10n ** 18n;

function out(pool: PoolState, tokenIn: Address, amountIn: bigint): bigint {
  const [rIn, rOut] =
    pool.token0 === tokenIn ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
  return getAmountOut(amountIn, rIn, rOut, pool.feeBps);
}

describe("findBestRoute", () => {
  test("behavior: picks the DEX with the better output for the same pair", () => {
    const uni = makePool(WETH, USDC, units(1000, 18), units(2_000_000, 6), { feeBps: 30, dex: "uniswap" });
    const cake = makePool(WETH, USDC, units(1000, 18), units(2_000_000, 6), { feeBps: 25, dex: "pancake" });
    const index = createPoolIndex([uni, cake]);
    const route = findBestRoute({ index, sell: WETH, buy: USDC, amountIn: E18, baseTokens: BASES });
    expect(route?.hops.map((h) => h.pool.dex)).toEqual(["pancake"]);
    expect(route?.amountOut).toBe(out(cake, WETH, E18));
    expect(route?.path).toEqual([WETH, USDC]);

    // A deeper pool with the higher fee wins for a large trade.
    const deepUni = makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6), {
      feeBps: 30,
      dex: "uniswap",
    });
    index.update(deepUni);
    const big = findBestRoute({ index, sell: WETH, buy: USDC, amountIn: 50n * E18, baseTokens: BASES });
    expect(big?.hops[0]?.pool.address).toBe(deepUni.address);
    expect(big?.amountOut).toBe(out(deepUni, WETH, 50n * E18));
  });

  test("behavior: a 2-hop route through a base token beats a thin direct pool", () => {
    const direct = makePool(LINK, USDC, units(100, 18), units(1_500, 6));
    const linkWeth = makePool(LINK, WETH, units(100_000, 18), units(750, 18));
    const wethUsdc = makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6));
    const index = createPoolIndex([direct, linkWeth, wethUsdc]);
    const amountIn = units(50, 18);
    const route = findBestRoute({ index, sell: LINK, buy: USDC, amountIn, baseTokens: BASES });
    const viaWeth = out(wethUsdc, WETH, out(linkWeth, LINK, amountIn));
    expect(viaWeth).toBeGreaterThan(out(direct, LINK, amountIn));
    expect(route?.path).toEqual([LINK, WETH, USDC]);
    expect(route?.amountOut).toBe(viaWeth);
    expect(route?.hops.map((h) => h.amountIn)).toEqual([amountIn, out(linkWeth, LINK, amountIn)]);
  });

  test("behavior: finds a 3-hop route when no shorter path exists", () => {
    const a = makePool(LINK, WETH, units(100_000, 18), units(750, 18));
    const b = makePool(WETH, WBTC, units(1_000, 18), units(50, 8), { feeBps: 25 });
    const c = makePool(WBTC, UNI, units(50, 8), units(400_000, 18));
    const index = createPoolIndex([a, b, c]);
    const amountIn = units(10, 18);
    const route = findBestRoute({ index, sell: LINK, buy: UNI, amountIn, baseTokens: BASES });
    expect(route?.path).toEqual([LINK, WETH, WBTC, UNI]);
    expect(route?.amountOut).toBe(out(c, WBTC, out(b, WETH, out(a, LINK, amountIn))));
  });

  test("args: maxHops limits the route length", () => {
    const a = makePool(LINK, WETH, units(100_000, 18), units(750, 18));
    const b = makePool(WETH, WBTC, units(1_000, 18), units(50, 8));
    const c = makePool(WBTC, UNI, units(50, 8), units(400_000, 18));
    const index = createPoolIndex([a, b, c]);
    const args = { index, sell: LINK, buy: UNI, amountIn: units(10, 18), baseTokens: BASES };
    expect(findBestRoute({ ...args, maxHops: 2 })).toBeUndefined();
    expect(findBestRoute({ ...args, maxHops: 3 })?.hops).toHaveLength(3);
    // Adding a 2-hop path makes maxHops 2 succeed, and maxHops 1 still fails.
    index.update(makePool(WETH, UNI, units(1_000, 18), units(400_000, 18)));
    expect(findBestRoute({ ...args, maxHops: 2 })?.path).toEqual([LINK, WETH, UNI]);
    expect(findBestRoute({ ...args, maxHops: 1 })).toBeUndefined();
  });

  test("behavior: intermediate tokens must be base tokens", () => {
    const notBase = addr("PEPE");
    const index = createPoolIndex([
      makePool(LINK, notBase, units(1_000_000, 18), units(1_000_000, 18)),
      makePool(notBase, UNI, units(1_000_000, 18), units(1_000_000, 18)),
    ]);
    expect(findBestRoute({ index, sell: LINK, buy: UNI, amountIn: E18, baseTokens: BASES })).toBeUndefined();
    const withPepe = new Set([...BASES, notBase]);
    expect(findBestRoute({ index, sell: LINK, buy: UNI, amountIn: E18, baseTokens: withPepe })?.path).toEqual(
      [LINK, notBase, UNI],
    );
  });

  test("behavior: undefined without liquidity", () => {
    const empty = makePool(LINK, USDC, 0n, 0n);
    const index = createPoolIndex([empty]);
    expect(findBestRoute({ index, sell: LINK, buy: USDC, amountIn: E18, baseTokens: BASES })).toBeUndefined();
    expect(findBestRoute({ index, sell: UNI, buy: USDC, amountIn: E18, baseTokens: BASES })).toBeUndefined();
    // Too small an input to get even 1 unit out is no route either.
    index.update(makePool(LINK, USDC, units(1_000_000, 18), 10n));
    expect(findBestRoute({ index, sell: LINK, buy: USDC, amountIn: 1n, baseTokens: BASES })).toBeUndefined();
  });

  test("args: zero amount or sell == buy gives no route", () => {
    const index = createPoolIndex([makePool(LINK, USDC, units(1000, 18), units(1000, 6))]);
    expect(findBestRoute({ index, sell: LINK, buy: USDC, amountIn: 0n, baseTokens: BASES })).toBeUndefined();
    expect(findBestRoute({ index, sell: LINK, buy: LINK, amountIn: E18, baseTokens: BASES })).toBeUndefined();
  });

  test("behavior: price impact is 1 - executed/mid along the route", () => {
    const a = makePool(LINK, WETH, units(100_000, 18), units(750, 18));
    const b = makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6));
    const index = createPoolIndex([a, b]);
    // A tiny trade pays about the two fees: 1 - 0.997^2 = 5991 ppm.
    const small = findBestRoute({ index, sell: LINK, buy: USDC, amountIn: E18, baseTokens: BASES });
    expect(small?.priceImpactPpm).toBeGreaterThanOrEqual(5991n);
    expect(small?.priceImpactPpm).toBeLessThan(6100n);
    // A trade of 10% of the LINK reserve moves the price by about 10% more.
    const amountIn = units(10_000, 18);
    const large = findBestRoute({ index, sell: LINK, buy: USDC, amountIn, baseTokens: BASES });
    const midOut = (amountIn * 750n * 20_000_000n * 10n ** 6n) / (100_000n * 10_000n * 10n ** 18n);
    const expected = ((midOut - large!.amountOut) * 1_000_000n) / midOut;
    expect(large?.priceImpactPpm).toBeGreaterThanOrEqual(expected - 1n);
    expect(large?.priceImpactPpm).toBeLessThanOrEqual(expected + 1n);
    expect(large?.priceImpactPpm).toBeGreaterThan(90_000n);
  });

  test("behavior: equals a brute force over every path and pool choice", () => {
    // Seeded random graphs: the search must find exactly the best of all enumerated routes.
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const tokens = [WETH, USDC, DAI, WBTC, LINK, UNI];
    const hopCounts = new Set<number>();
    for (let round = 0; round < 40; round++) {
      const pools: PoolState[] = [];
      for (let i = 0; i < tokens.length; i++) {
        for (let j = i + 1; j < tokens.length; j++) {
          const count = Math.floor(rand() * 3); // 0..2 pools per pair
          for (let k = 0; k < count; k++) {
            const r0 = BigInt(Math.floor(rand() * 1e6) + 1) * 10n ** 15n;
            const r1 = BigInt(Math.floor(rand() * 1e6) + 1) * 10n ** 15n;
            pools.push(makePool(tokens[i]!, tokens[j]!, r0, r1, { feeBps: rand() < 0.5 ? 30 : 25 }));
          }
        }
      }
      const index = createPoolIndex(pools);
      const amountIn = BigInt(Math.floor(rand() * 1e6) + 1) * 10n ** 15n;
      const between = (x: Address, y: Address) =>
        pools.filter((p) => (p.token0 === x && p.token1 === y) || (p.token0 === y && p.token1 === x));
      // Enumerate every pool combination of every token path (no per-hop greedy choice).
      let expected = 0n;
      const walk = (token: Address, amount: bigint, used: Address[]) => {
        for (const p of between(token, UNI)) {
          const amountOut = out(p, token, amount);
          if (amountOut > expected) expected = amountOut;
        }
        if (used.length >= 3) return;
        for (const next of [WETH, USDC, DAI, WBTC]) {
          if (used.includes(next)) continue;
          for (const p of between(token, next)) walk(next, out(p, token, amount), [...used, next]);
        }
      };
      walk(LINK, amountIn, [LINK]);
      const route = findBestRoute({ index, sell: LINK, buy: UNI, amountIn, baseTokens: BASES });
      expect(route?.amountOut ?? 0n).toBe(expected);
      hopCounts.add(route?.hops.length ?? 0);
    }
    // The random graphs made the best route direct, 2-hop and 3-hop in turn.
    expect([...hopCounts].sort()).toEqual([1, 2, 3]);
  });
});
