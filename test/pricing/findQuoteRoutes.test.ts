import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { findQuoteRoutes } from "../../src/pricing/findQuoteRoutes.js";
import type { PoolIndex } from "../../src/pricing/types.js";
import { findBestRoute } from "../support/findBestRoute.js";
import { LINK, makePool, UNI, USDC, units, WBTC, WETH } from "./fixtures.js";

const BASES = new Set<Address>([WETH, USDC, WBTC]);
const PROBE = 2n ** 112n;

// A market where the best path depends on the amount: a thin direct pool wins small trades, a
// deep two-hop path wins large ones; UNI is reachable only over three hops.
function market(): PoolIndex {
  return createPoolIndex([
    makePool(LINK, USDC, units(100, 18), units(1_500, 6)),
    makePool(LINK, WETH, units(100_000, 18), units(750, 18)),
    makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6)),
    makePool(WETH, WBTC, units(1_000, 18), units(50, 8), { feeBps: 25 }),
    makePool(WBTC, UNI, units(50, 8), units(400_000, 18)),
  ]);
}

describe("findQuoteRoutes", () => {
  test("behavior: one search gives the amount's and the unit's routes, each what findBestRoute finds alone", () => {
    const index = market();
    for (const [buy, amountIn] of [
      [USDC, units(50, 18)],
      [USDC, 10n ** 15n],
      [UNI, units(10, 18)],
      [USDC, units(1, 18)],
    ] as const) {
      const unitAmount = units(1, 18);
      const found = findQuoteRoutes({ index, sell: LINK, buy, amountIn, unitAmount, baseTokens: BASES });
      expect(found).toEqual({
        kind: "route",
        route: findBestRoute({ index, sell: LINK, buy, amountIn, baseTokens: BASES }),
        unitRoute: findBestRoute({ index, sell: LINK, buy, amountIn: unitAmount, baseTokens: BASES }),
      });
    }
  });

  test("behavior: pools that give the amount nothing are noOutput, with the route a reserve-sized amount takes", () => {
    const index = createPoolIndex([makePool(LINK, USDC, units(1_000_000, 18), 10n)]);
    const args = { index, sell: LINK, buy: USDC, baseTokens: BASES };
    const found = findQuoteRoutes({ ...args, amountIn: 1n, unitAmount: units(1, 18) });
    expect(found).toEqual({
      kind: "noOutput",
      probe: findBestRoute({ ...args, amountIn: PROBE }),
      unitRoute: undefined,
    });
    expect(found.kind === "noOutput" && found.probe.path).toEqual([LINK, USDC]);
  });

  test("behavior: tokens no pools connect are noRoute, a value", () => {
    const index = market();
    const args = { index, sell: UNI, buy: USDC, baseTokens: BASES, unitAmount: units(1, 18) };
    expect(findQuoteRoutes({ ...args, amountIn: units(1, 18), maxHops: 1 })).toEqual({ kind: "noRoute" });
    const empty = createPoolIndex([makePool(LINK, USDC, 0n, 0n)]);
    expect(findQuoteRoutes({ ...args, index: empty, sell: LINK, amountIn: units(1, 18) })).toEqual({
      kind: "noRoute",
    });
  });
});
