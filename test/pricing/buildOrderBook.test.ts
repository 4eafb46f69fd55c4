import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { buildOrderBook } from "../../src/pricing/buildOrderBook.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import type { PoolState } from "../../src/pricing/types.js";
import { createTickTable } from "../../src/pricing/v3/createTickTable.js";
import { getSqrtRatioAtTick } from "../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../src/pricing/v3/swapExactInput.js";

// Unit test of the pure builder on made-up pools (the real path against the chain's router and
// QuoterV2 is test/http/orderBook.test.ts).
const base = {
  address: "0x0000000000000000000000000000000000000001" as Address,
  dex: "test",
  factory: "0x0000000000000000000000000000000000000002" as Address,
  token0: "0x0000000000000000000000000000000000000003" as Address,
  token1: "0x0000000000000000000000000000000000000004" as Address,
};
const v2: PoolState = { ...base, feeBps: 30, reserve0: 10n ** 21n, reserve1: 3n * 10n ** 24n };
const L = 10n ** 20n;
const v3: PoolState = {
  ...base,
  feeBps: 30,
  reserve0: 0n,
  reserve1: 0n,
  v3: { fee: 3000, tickSpacing: 60 },
  v3State: {
    sqrtPriceX96: getSqrtRatioAtTick(1010),
    tick: 1010,
    // In range: both positions.
    liquidity: 2n * L,
    // A full-range position and a narrow one around the price: the book crosses ticks.
    ticks: createTickTable([
      [-887220, { liquidityNet: L, liquidityGross: L }],
      [960, { liquidityNet: L, liquidityGross: L }],
      [1080, { liquidityNet: -L, liquidityGross: L }],
      [887220, { liquidityNet: -L, liquidityGross: L }],
    ]),
  },
};

const sum = (levels: { amount0: bigint; amount1: bigint }[], k: number) =>
  levels.slice(0, k).reduce((a, l) => ({ amount0: a.amount0 + l.amount0, amount1: a.amount1 + l.amount1 }), {
    amount0: 0n,
    amount1: 0n,
  });

describe("buildOrderBook", () => {
  test("behavior: a V2 side's summed levels are one swap by the pair's formula, its price within the edge and one unit more past it", () => {
    const book = buildOrderBook(v2, { levels: 7, rangePpm: 20_000 })!;
    const div = 7_000_000n;
    for (let k = 1; k <= 7; k++) {
      const ask = sum(book.asks, k);
      expect(getAmountOut(ask.amount1, v2.reserve1, v2.reserve0, 30)).toBe(ask.amount0);
      const mul = div + BigInt(k) * 20_000n;
      const within = (q: bigint) =>
        (v2.reserve1 + q) * v2.reserve0 * div <=
        v2.reserve1 * mul * (v2.reserve0 - getAmountOut(q, v2.reserve1, v2.reserve0, 30));
      expect([within(ask.amount1), within(ask.amount1 + 1n)]).toEqual([true, false]);
      const bid = sum(book.bids, k);
      expect(getAmountOut(bid.amount0, v2.reserve0, v2.reserve1, 30)).toBe(bid.amount1);
    }
    expect(book.bestAsk > book.mid && book.mid > book.bestBid).toBe(true);
  });

  test("behavior: a V3 side's summed levels are one swap to the level's price limit, across ticks", () => {
    const book = buildOrderBook(v3, { levels: 5, rangePpm: 50_000 })!;
    const state = { ...v3.v3State!, fee: 3000, tickSpacing: 60 };
    for (const [ask, side] of [
      [true, book.asks],
      [false, book.bids],
    ] as const) {
      for (let k = 1; k <= 5; k++) {
        const total = sum(side, k);
        const limit = side[k - 1]!.sqrtPriceX96!;
        const swap = swapExactInput(state, !ask, ask ? total.amount1 : total.amount0, limit);
        expect(swap.sqrtPriceX96).toBe(limit);
        expect(swap.amountOut).toBe(ask ? total.amount0 : total.amount1);
      }
      // The 5% range crosses the narrow position's bounds (ticks 960 and 1080, about 0.5% and 0.7% away).
      expect(side.every((l) => l.amount0 > 0n && l.amount1 > 0n)).toBe(true);
    }
  });

  test("behavior: 500 levels a side build in bounded steps (no walk from a far start)", () => {
    const book = buildOrderBook(v3, { levels: 500, rangePpm: 20_000 })!;
    expect([book.asks.length, book.bids.length]).toEqual([500, 500]);
  });

  test("error: levels and range out of bounds throw", () => {
    expect(() => buildOrderBook(v2, { levels: -1, rangePpm: 20_000 })).toThrow(/levels/);
    expect(() => buildOrderBook(v2, { levels: 1, rangePpm: 1_000_000 })).toThrow(/rangePpm/);
    expect(buildOrderBook({ ...v2, reserve0: 0n }, { levels: 1, rangePpm: 1 })).toBeUndefined();
  });
});
