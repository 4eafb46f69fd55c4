import { getAmountOut } from "../src/pricing/getAmountOut.js";
import { applyLiquidityChange } from "../src/pricing/v3/applyLiquidityChange.js";
import { createTickTable } from "../src/pricing/v3/createTickTable.js";
import { getSqrtRatioAtTick } from "../src/pricing/v3/getSqrtRatioAtTick.js";
import { swapExactInput } from "../src/pricing/v3/swapExactInput.js";
import type { V3PoolState } from "../src/pricing/v3/v3Types.js";

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

/**
 * What one hop costs: a V3 pool's exact swap within one tick and across about 20 initialized
 * ticks (40 overlapping positions, spacing 60), next to a V2 pair's getAmountOut, in one run.
 */
export function benchV3Hop(): Record<string, number> {
  const ticks = createTickTable();
  let liquidity = 0n;
  for (let i = 0; i < 40; i++) {
    const change = applyLiquidityChange(
      { ticks, tick: 0, liquidity },
      -60 * (3 * i + 1),
      60 * (3 * i + 2),
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
  const across = microsPerCall(() => swapExactInput(state, true, amountIn), 300);
  const within = microsPerCall(() => swapExactInput(state, true, 10n ** 12n), 200);
  const v2 = microsPerCall(() => getAmountOut(amountIn, 10n ** 24n, 3n * 10n ** 24n, 30), 200);
  return {
    "V2 hop µs": Number(v2.toFixed(3)),
    "V3 hop within one tick µs": Number(within.toFixed(2)),
    [`V3 hop across ${crossed} ticks µs`]: Number(across.toFixed(1)),
    "V3 across / V2": Math.round(across / v2),
  };
}
