import type { Address, Trade } from "../domain/types.js";

/** One pass of a swap through a pool: its hop in the route, its direction and the pool's own amounts. */
export interface PoolPass {
  hop: number;
  zeroForOne: boolean;
  amount0: bigint;
  amount1: bigint;
}

/** The passes of one swap through `pool`, from its marks (none without marks): Query.poolSwaps' rows. */
export function poolPassesOf(trade: Trade, pool: Address): PoolPass[] {
  const hops = trade.marks?.hops ?? [];
  const passes: PoolPass[] = [];
  trade.pools.forEach((address, hop) => {
    const marks = hops[hop];
    if (address !== pool || marks === undefined) return;
    passes.push({
      hop,
      zeroForOne: marks.zeroForOne,
      amount0: marks.zeroForOne ? marks.amountIn : marks.amountOut,
      amount1: marks.zeroForOne ? marks.amountOut : marks.amountIn,
    });
  });
  return passes;
}
