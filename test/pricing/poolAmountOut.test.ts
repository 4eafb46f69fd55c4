import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { poolAmountOut, poolAmountOutBound } from "../../src/pricing/poolAmountOut.js";
import type { PoolState } from "../../src/pricing/types.js";
import { createTickTable } from "../../src/pricing/v3/createTickTable.js";
import { getSqrtRatioAtTick } from "../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../src/pricing/v3/swapExactInput.js";
import { v3VirtualReserves } from "../../src/pricing/v3/v3VirtualReserves.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

/** A V3 pool at `tick` with liquidity L in [-600, 600) and L/2 more in [-60, 60). */
function v3Pool(tick: number, fee: number): PoolState {
  const L = 10n ** 21n;
  const ticks = createTickTable([
    [-600, { liquidityNet: L, liquidityGross: L }],
    [-60, { liquidityNet: L / 2n, liquidityGross: L / 2n }],
    [60, { liquidityNet: -L / 2n, liquidityGross: L / 2n }],
    [600, { liquidityNet: -L, liquidityGross: L }],
  ]);
  const sqrtPriceX96 = getSqrtRatioAtTick(tick);
  const liquidity = tick >= -60 && tick < 60 ? L + L / 2n : L;
  const [reserve0, reserve1] = v3VirtualReserves(sqrtPriceX96, liquidity);
  return {
    address: a(1),
    dex: "v3",
    factory: a(2),
    token0: a(3),
    token1: a(4),
    feeBps: Math.floor(fee / 100),
    v3: { fee, tickSpacing: 60 },
    reserve0,
    reserve1,
    v3State: { sqrtPriceX96, tick, liquidity, ticks },
  };
}

describe("poolAmountOut on a V3 pool", () => {
  test("behavior: the bound is never below what the pool gives, and close to it for a small amount", () => {
    for (const [tick, fee] of [
      [0, 3000],
      [-30, 500],
      [59, 10000],
    ] as const) {
      const pool = v3Pool(tick, fee);
      for (const zeroForOne of [true, false]) {
        for (let e = 0; e <= 24; e++) {
          const amountIn = 10n ** BigInt(e) + 7n;
          const out = poolAmountOut(pool, zeroForOne, amountIn);
          const bound = poolAmountOutBound(pool, zeroForOne, amountIn)!;
          expect(bound >= out, `${tick} ${zeroForOne} ${amountIn}`).toBe(true);
        }
        const small = 10n ** 12n;
        const out = poolAmountOut(pool, zeroForOne, small);
        const bound = poolAmountOutBound(pool, zeroForOne, small)!;
        // Within the first tick the only loss beyond the fee is rounding and a sliver of impact.
        expect(bound - out <= out / 1_000n + 2n).toBe(true);
      }
    }
  });

  test("behavior: an amount the pool's liquidity cannot take whole gives no output", () => {
    const pool = v3Pool(0, 3000);
    expect(poolAmountOut(pool, true, 10n ** 30n)).toBe(0n);
    expect(poolAmountOut(pool, true, 10n ** 18n) > 0n).toBe(true);
  });

  test("behavior: a V2 pair has no bound and keeps the constant-product output", () => {
    const pair: PoolState = {
      address: a(5),
      dex: "v2",
      factory: a(6),
      token0: a(3),
      token1: a(4),
      feeBps: 30,
      reserve0: 10n ** 20n,
      reserve1: 10n ** 20n,
    };
    expect(poolAmountOutBound(pair, true, 10n ** 18n)).toBeUndefined();
    expect(poolAmountOut(pair, true, 10n ** 18n)).toBe(
      (10n ** 18n * 997n * 10n ** 20n) / (10n ** 20n * 1000n + 10n ** 18n * 997n),
    );
  });
});

describe("the ladder of full steps", () => {
  test("behavior: poolAmountOut equals the pool's whole swap for every amount, in any order, within the first step and beyond", () => {
    for (const [tick, fee] of [
      [0, 3000],
      [-59, 500],
      [599, 10000],
      [-601, 3000],
    ] as const) {
      const amounts = Array.from(
        { length: 231 },
        (_, e) => (10n ** BigInt(Math.floor(e / 10)) * BigInt(10 + (e % 10) * 9)) / 10n + 1n,
      );
      // Ascending, descending and interleaved, each on a fresh state (its ladder starts empty).
      const orders = [
        amounts,
        [...amounts].reverse(),
        amounts.filter((_, i) => i % 2 === 1).concat(amounts.filter((_, i) => i % 2 === 0)),
      ];
      for (const [order, zeroForOne] of orders.flatMap(
        (o) =>
          [
            [o, true],
            [o, false],
          ] as const,
      )) {
        const pool = v3Pool(tick, fee);
        const state = { ...pool.v3State!, fee, tickSpacing: 60 };
        for (const amountIn of order) {
          const whole = swapExactInput(state, zeroForOne, amountIn);
          const expected = whole.amountIn === amountIn ? whole.amountOut : 0n;
          expect(poolAmountOut(pool, zeroForOne, amountIn), `${tick} ${zeroForOne} ${amountIn}`).toBe(
            expected,
          );
        }
      }
    }
  });
});
