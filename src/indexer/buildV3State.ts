import type { V3PoolStateRead } from "../chain/readV3PoolState.js";
import type { V3State } from "../pricing/types.js";
import { createTickTable } from "../pricing/v3/createTickTable.js";

/** The pricing state of a V3 pool from its state read off the chain (slot0, liquidity, ticks). */
export function buildV3State(read: V3PoolStateRead): V3State {
  return {
    sqrtPriceX96: read.sqrtPriceX96,
    tick: read.tick,
    liquidity: read.liquidity,
    ticks: createTickTable(read.ticks.map((t) => [t.tick, t] as const)),
  };
}
