import { getAmountOut } from "./getAmountOut.js";
import type { PoolState } from "./types.js";
import { v3LadderAmountOut } from "./v3SwapLadder.js";

/**
 * Output of selling `amountIn` of token0 (zeroForOne) or token1 to a pool, exactly as the pool
 * computes it: a V2 pair by the constant-product formula with its fee, a V3 pool by its swap
 * over the indexed ticks. A V3 pool that cannot take the whole amount (its liquidity runs out
 * before the price limit) offers no output: a quote never shows a fill the pool cannot give.
 */
export function poolAmountOut(pool: PoolState, zeroForOne: boolean, amountIn: bigint): bigint {
  if (pool.v3 === undefined || pool.v3State === undefined) {
    const reserveIn = zeroForOne ? pool.reserve0 : pool.reserve1;
    const reserveOut = zeroForOne ? pool.reserve1 : pool.reserve0;
    return getAmountOut(amountIn, reserveIn, reserveOut, pool.feeBps);
  }
  const state = pool.v3State;
  if (amountIn <= 0n || state.sqrtPriceX96 === 0n || (state.liquidity === 0n && state.ticks.size === 0))
    return 0n;
  return v3LadderAmountOut(state, pool.v3, zeroForOne, amountIn) ?? 0n;
}

const Q192 = 1n << 192n;
const PIPS = 1_000_000n;

/**
 * An upper bound of what a V3 pool gives for `amountIn` (undefined for a V2 pair): the input
 * after the fee at the pool's current price. The price only worsens as a swap goes on, so the
 * pool never gives more; a route search skips the exact walk over the ticks of a pool whose
 * bound cannot beat the best pool found so far.
 */
export function poolAmountOutBound(
  pool: PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
): bigint | undefined {
  if (pool.v3 === undefined || pool.v3State === undefined) return undefined;
  const sqrtPrice = pool.v3State.sqrtPriceX96;
  if (sqrtPrice === 0n) return 0n;
  const afterFee = amountIn * (PIPS - BigInt(pool.v3.fee));
  const price2 = sqrtPrice * sqrtPrice;
  return zeroForOne ? (afterFee * price2) / (PIPS * Q192) + 1n : (afterFee * Q192) / (PIPS * price2) + 1n;
}
