import type { V3PoolSpec } from "../domain/types.js";
import type { V3State } from "./types.js";
import { addDelta } from "./v3/addDelta.js";
import { computeSwapStep } from "./v3/computeSwapStep.js";
import { getAmount0Delta, getAmount1Delta } from "./v3/getAmountDelta.js";
import { getNextSqrtPriceFromInput } from "./v3/getNextSqrtPrice.js";
import {
  getSqrtRatioAtTick,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "./v3/getSqrtRatioAtTick.js";
import { mulDiv, TWO_256 } from "./v3/mulDiv.js";
import { swapExactInput } from "./v3/swapExactInput.js";

const PIPS = 1_000_000n;
/** Steps kept per pool state and direction; an amount beyond them is walked in full. */
const MAX_RUNGS = 512;
// An input no step can use up: each full step then takes exactly what it takes in the pool.
const UNBOUNDED = TWO_256 / 2n;

/** One full step of a swap: where it starts, where it ends, and the totals once it is done. */
interface Rung {
  sqrtPriceX96: bigint;
  liquidity: bigint;
  /** Where the step ends (the next tick, the word's edge or the limit). */
  target: bigint;
  /** Input (fee included) and output of every step up to and including this one. */
  totalIn: bigint;
  totalOut: bigint;
}

interface Ladder {
  rungs: Rung[];
  /** The state after the last rung: where the next rung starts. */
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** The price reached the limit: no more input can go in. */
  done: boolean;
}

// Per state object (states are never changed in place): [zeroForOne, oneForZero].
const ladders = new WeakMap<V3State, [Ladder | undefined, Ladder | undefined]>();

function ladderOf(state: V3State, zeroForOne: boolean): Ladder {
  let both = ladders.get(state);
  if (both === undefined) {
    both = [undefined, undefined];
    ladders.set(state, both);
  }
  let ladder = both[zeroForOne ? 0 : 1];
  if (ladder === undefined) {
    ladder = {
      rungs: [],
      sqrtPriceX96: state.sqrtPriceX96,
      tick: state.tick,
      liquidity: state.liquidity,
      done: false,
    };
    both[zeroForOne ? 0 : 1] = ladder;
  }
  return ladder;
}

/**
 * Adds the next full step, exactly as UniswapV3Pool.swap's loop takes it (the next initialized
 * tick or the bitmap word's edge, whichever is nearer; the liquidity crossing a tick adds).
 */
function climb(ladder: Ladder, state: V3State, spec: V3PoolSpec, zeroForOne: boolean): void {
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  if (ladder.sqrtPriceX96 === limit) {
    ladder.done = true;
    return;
  }
  const found = state.ticks.nextInitializedTickWithinOneWord(ladder.tick, spec.tickSpacing, zeroForOne);
  const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
  const next = getSqrtRatioAtTick(tickNext);
  const target = (zeroForOne ? next < limit : next > limit) ? limit : next;
  const step = computeSwapStep(ladder.sqrtPriceX96, target, ladder.liquidity, UNBOUNDED, spec.fee);
  const last = ladder.rungs.at(-1);
  ladder.rungs.push({
    sqrtPriceX96: ladder.sqrtPriceX96,
    liquidity: ladder.liquidity,
    target,
    totalIn: (last?.totalIn ?? 0n) + step.amountIn + step.feeAmount,
    totalOut: (last?.totalOut ?? 0n) + step.amountOut,
  });
  ladder.sqrtPriceX96 = step.sqrtRatioNextX96;
  if (step.sqrtRatioNextX96 === next) {
    if (found.initialized) {
      const net = state.ticks.get(tickNext)?.liquidityNet ?? 0n;
      ladder.liquidity = addDelta(ladder.liquidity, zeroForOne ? -net : net);
    }
    ladder.tick = zeroForOne ? tickNext - 1 : tickNext;
  }
}

/**
 * The output of an exact-input swap of `amountIn` on a V3 pool, bit-exact with the pool: the
 * full steps a swap takes do not depend on the amount, so they are computed once per pool state
 * and direction (a "ladder" of running totals, built as far as amounts reach) and every amount
 * costs a binary search over them plus its last, partial step. Undefined when the pool cannot take
 * the whole amount. A route search asks the same pools for many amounts; so do quotes between two
 * blocks.
 */
export function v3LadderAmountOut(
  state: V3State,
  spec: V3PoolSpec,
  zeroForOne: boolean,
  amountIn: bigint,
): bigint | undefined {
  const ladder = ladderOf(state, zeroForOne);
  const { rungs } = ladder;
  while (!ladder.done && (rungs.at(-1)?.totalIn ?? -1n) <= amountIn && rungs.length < MAX_RUNGS) {
    climb(ladder, state, spec, zeroForOne);
  }
  // The first rung the amount does not complete.
  let low = 0;
  let high = rungs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rungs[middle]!.totalIn <= amountIn) low = middle + 1;
    else high = middle;
  }
  if (low === rungs.length) {
    const last = rungs.at(-1);
    if (ladder.done)
      return last !== undefined && last.totalIn === amountIn
        ? last.totalOut
        : amountIn === 0n
          ? 0n
          : undefined;
    // Beyond the kept rungs: the pool's whole walk.
    const whole = swapExactInput(
      { ...state, fee: spec.fee, tickSpacing: spec.tickSpacing },
      zeroForOne,
      amountIn,
    );
    return whole.amountIn === amountIn ? whole.amountOut : undefined;
  }
  const rung = rungs[low]!;
  const before = low === 0 ? { totalIn: 0n, totalOut: 0n } : rungs[low - 1]!;
  const remaining = amountIn - before.totalIn;
  if (remaining === 0n) return before.totalOut;
  const lessFee = mulDiv(remaining, PIPS - BigInt(spec.fee), PIPS);
  const P = rung.sqrtPriceX96;
  const L = rung.liquidity;
  const after = getNextSqrtPriceFromInput(P, L, lessFee, zeroForOne);
  // Rounding that lands on the step's end leaves the pool's own loop to decide: walk it.
  if (after === rung.target) {
    const whole = swapExactInput(
      { ...state, fee: spec.fee, tickSpacing: spec.tickSpacing },
      zeroForOne,
      amountIn,
    );
    return whole.amountIn === amountIn ? whole.amountOut : undefined;
  }
  const out = zeroForOne ? getAmount1Delta(after, P, L, false) : getAmount0Delta(P, after, L, false);
  return before.totalOut + out;
}
