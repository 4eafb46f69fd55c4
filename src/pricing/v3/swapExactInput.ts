import { addDelta } from "./addDelta.js";
import { computeSwapStep } from "./computeSwapStep.js";
import {
  getSqrtRatioAtTick,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "./getSqrtRatioAtTick.js";
import { getTickAtSqrtRatio } from "./getTickAtSqrtRatio.js";
import type { V3PoolState, V3SwapResult } from "./v3Types.js";

/**
 * UniswapV3Pool.swap for an exact input of token0 (zeroForOne) or token1, step for step: each
 * step goes to the next initialized tick or the end of the tick-bitmap word, whichever is nearer,
 * because the pool rounds once per step and stepping differently would change the output by a
 * few wei. Without a limit the price may go as far as QuoterV2 lets it (MIN_SQRT_RATIO + 1 or
 * MAX_SQRT_RATIO - 1). Does not change `state`. Throws (SPL) when the limit is not beyond the
 * price, as the pool reverts.
 */
export function swapExactInput(
  state: V3PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
  sqrtPriceLimitX96?: bigint,
): V3SwapResult {
  if (amountIn < 0n) throw new Error(`swapExactInput: negative amountIn ${amountIn}`);
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);
  const limitOk = zeroForOne
    ? limit < state.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > state.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!limitOk) throw new Error(`swapExactInput: price limit ${limit} is not beyond the price (SPL)`);

  let remaining = amountIn;
  let amountOut = 0n;
  let sqrtPriceX96 = state.sqrtPriceX96;
  let tick = state.tick;
  let liquidity = state.liquidity;
  let ticksCrossed = 0;
  let tickStale = false;
  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const start = sqrtPriceX96;
    const found = state.ticks.nextInitializedTickWithinOneWord(tick, state.tickSpacing, zeroForOne);
    const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
    const sqrtPriceNextX96 = getSqrtRatioAtTick(tickNext);
    const target = (zeroForOne ? sqrtPriceNextX96 < limit : sqrtPriceNextX96 > limit)
      ? limit
      : sqrtPriceNextX96;
    const step = computeSwapStep(sqrtPriceX96, target, liquidity, remaining, state.fee);
    sqrtPriceX96 = step.sqrtRatioNextX96;
    remaining -= step.amountIn + step.feeAmount;
    amountOut += step.amountOut;
    if (sqrtPriceX96 === sqrtPriceNextX96) {
      if (found.initialized) {
        // A found tick is initialized, hence in the table.
        const net = state.ticks.get(tickNext)?.liquidityNet ?? 0n;
        liquidity = addDelta(liquidity, zeroForOne ? -net : net);
        ticksCrossed++;
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
      tickStale = false;
    } else if (sqrtPriceX96 !== start) {
      // Only a step that ends the swap stops between ticks: its tick is wanted for the state
      // after the swap, not for the amounts, so a quote does not pay for it (computed on read).
      tickStale = true;
    }
  }
  const last = sqrtPriceX96;
  let after = tick;
  return {
    amountIn: amountIn - remaining,
    amountOut,
    sqrtPriceX96,
    get tick() {
      if (tickStale) {
        after = getTickAtSqrtRatio(last);
        tickStale = false;
      }
      return after;
    },
    liquidity,
    ticksCrossed,
  };
}
