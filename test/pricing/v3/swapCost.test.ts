import { expect, test } from "vitest";
import { getAmountOut } from "../../../src/pricing/getAmountOut.js";
import { applyLiquidityChange } from "../../../src/pricing/v3/applyLiquidityChange.js";
import { createTickTable } from "../../../src/pricing/v3/createTickTable.js";
import { getSqrtRatioAtTick } from "../../../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import type { V3PoolState } from "../../../src/pricing/v3/v3Types.js";

/** Microseconds per call of `run`, over enough calls to take about `budgetMs`. */
function microsPerCall(run: () => void, budgetMs: number): number {
  for (let i = 0; i < 200; i++) run(); // warm up
  let calls = 0;
  const start = performance.now();
  while (performance.now() - start < budgetMs) {
    for (let i = 0; i < 100; i++) run();
    calls += 100;
  }
  return ((performance.now() - start) * 1000) / calls;
}

// A measure to print, not a limit to assert: what one V3 quote costs next to a V2 one.
test("behavior: the cost of a V3 quote crossing about 20 ticks, next to a V2 getAmountOut", () => {
  const ticks = createTickTable();
  let liquidity = 0n;
  // 40 overlapping positions every 3 spacings above and below tick 0 (spacing 60).
  for (let i = 0; i < 40; i++) {
    const lower = -60 * (3 * i + 1);
    const upper = 60 * (3 * i + 2);
    const change = applyLiquidityChange(
      { ticks, tick: 0, liquidity },
      lower,
      upper,
      10n ** 18n + BigInt(i) * 10n ** 16n,
    );
    ticks.set(change.lower.tick, change.lower.liquidityNet, change.lower.liquidityGross);
    ticks.set(change.upper.tick, change.upper.liquidityNet, change.upper.liquidityGross);
    liquidity = change.liquidity;
  }
  const state: V3PoolState = {
    sqrtPriceX96: getSqrtRatioAtTick(0) + 12345n,
    tick: 0,
    liquidity,
    fee: 3000,
    tickSpacing: 60,
    ticks,
  };
  let amountIn = 10n ** 15n;
  while (swapExactInput(state, true, amountIn).ticksCrossed < 20) amountIn = (amountIn * 11n) / 10n;
  const crossed = swapExactInput(state, true, amountIn).ticksCrossed;
  expect(crossed).toBeGreaterThanOrEqual(20);
  expect(crossed).toBeLessThanOrEqual(22);

  const v3 = microsPerCall(() => swapExactInput(state, true, amountIn), 300);
  const v3Small = microsPerCall(() => swapExactInput(state, true, 10n ** 12n), 200);
  const v2 = microsPerCall(() => getAmountOut(amountIn, 10n ** 24n, 3n * 10n ** 24n, 30), 200);
  console.log(
    `swapExactInput crossing ${crossed} ticks: ${v3.toFixed(1)} µs; within one tick: ${v3Small.toFixed(2)} µs; ` +
      `V2 getAmountOut: ${v2.toFixed(3)} µs (V3 ${(v3 / v2).toFixed(0)}x)`,
  );
});
