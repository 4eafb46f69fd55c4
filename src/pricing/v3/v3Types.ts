import type { ReadonlyTickTable } from "./createTickTable.js";

/** What a swap on a V3 pool (Uniswap V3, PancakeSwap V3) depends on. */
export interface V3PoolState {
  /** sqrt(token1/token0) in Q64.96, as slot0 holds it. */
  readonly sqrtPriceX96: bigint;
  /** slot0's tick: the greatest tick at or below the price (one below it after a downward cross). */
  readonly tick: number;
  /** Liquidity in range at the current tick (uint128). */
  readonly liquidity: bigint;
  /** Swap fee in pips (millionths): 100, 500, 2500, 3000, 10000. */
  readonly fee: number;
  readonly tickSpacing: number;
  readonly ticks: ReadonlyTickTable;
}

/** The outcome of an exact-input swap on a V3 pool. */
export interface V3SwapResult {
  /** Input the pool took, fee included: less than asked when the price reached the limit. */
  amountIn: bigint;
  amountOut: bigint;
  /** The pool's slot0 price, tick and active liquidity after the swap. */
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Initialized ticks the price crossed (each changed the active liquidity). */
  ticksCrossed: number;
}
