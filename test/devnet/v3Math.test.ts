import { rangeTicks } from "@swapgraph/devnet/v3/planV3Positions.js";
import {
  alignTick,
  amountsForLiquidity,
  getSqrtRatioAtTick,
  MAX_TICK,
  MIN_TICK,
  Q96,
  sqrtBigint,
  sqrtPriceX96FromUsd,
  tickAtSqrtPrice,
} from "@swapgraph/devnet/v3/v3Math.js";
import { describe, expect, test } from "vitest";

describe("devnet V3 math", () => {
  test("behavior: getSqrtRatioAtTick gives TickMath's bounds and 2^96 at tick 0", () => {
    expect(getSqrtRatioAtTick(0)).toBe(Q96);
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(4295128739n);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n);
    // Each tick is a 0.01% step in price.
    const ratio = Number(getSqrtRatioAtTick(10_000)) / Number(getSqrtRatioAtTick(0));
    expect(ratio ** 2).toBeCloseTo(1.0001 ** 10_000, 6);
  });

  test("behavior: sqrtBigint is the floor of the square root, also far past 2^53", () => {
    for (const value of [
      0n,
      1n,
      2n,
      3n,
      4n,
      99n,
      10n ** 40n - 1n,
      (1n << 200n) + 12_345n,
      (1n << 255n) - 1n,
    ]) {
      const root = sqrtBigint(value);
      expect(root * root <= value && (root + 1n) * (root + 1n) > value, String(value)).toBe(true);
    }
  });

  test("behavior: a pool opened from USD prices has the market's price in smallest units (decimals differ)", () => {
    // 1 WETH (18 decimals) = 3000 USDC (6 decimals): 3000e6 / 1e18 USDC units per WETH unit.
    const sqrtPriceX96 = sqrtPriceX96FromUsd(3000n * 10n ** 18n, 18, 10n ** 18n, 6);
    const price = (Number(sqrtPriceX96) / Number(Q96)) ** 2;
    expect(price / 3e-9).toBeCloseTo(1, 9);
    expect(tickAtSqrtPrice(sqrtPriceX96)).toBe(Math.floor(Math.log(3e-9) / Math.log(1.0001)));
  });

  test("behavior: ranges sit on the spacing around the price, out-of-range ones hold one token", () => {
    const sqrtPriceX96 = sqrtPriceX96FromUsd(600n * 10n ** 18n, 18, 10n ** 18n, 18);
    const tick = tickAtSqrtPrice(sqrtPriceX96);
    const [lower, upper] = rangeTicks(sqrtPriceX96, 10, { below: 0.01, above: 0.01 });
    expect(lower % 10).toBe(0);
    expect(upper % 10).toBe(0);
    expect(lower).toBeLessThan(tick);
    expect(upper).toBeGreaterThan(tick);
    expect(rangeTicks(sqrtPriceX96, 60, { below: Infinity, above: Infinity })).toEqual([
      alignTick(MIN_TICK, 60),
      alignTick(MAX_TICK, 60),
    ]);
    const above = rangeTicks(sqrtPriceX96, 10, { below: -0.08, above: 0.2 });
    const below = rangeTicks(sqrtPriceX96, 10, { below: 0.2, above: -0.08 });
    const at = (ticks: [number, number]) =>
      amountsForLiquidity(
        sqrtPriceX96,
        getSqrtRatioAtTick(ticks[0]),
        getSqrtRatioAtTick(ticks[1]),
        10n ** 18n,
      );
    expect(at(above)[0]).toBeGreaterThan(0n);
    expect(at(above)[1]).toBe(0n);
    expect(at(below)[0]).toBe(0n);
    expect(at(below)[1]).toBeGreaterThan(0n);
    const [amount0, amount1] = at([lower, upper]);
    expect(amount0).toBeGreaterThan(0n);
    expect(amount1).toBeGreaterThan(0n);
  });
});
