import type { PoolBalances } from "../domain/types.js";
import type { PoolState } from "./types.js";

/**
 * The token amounts a pool holds: a V2 pair's reserves (its Sync states exactly what it holds
 * for trading), a V3 pool's token balances as its events left them. Undefined for a V3 pool
 * whose balances are not known yet. A V3 pool's virtual reserves (PoolState.reserve0/1) are the
 * depth of its in-range liquidity at the price, not what it holds, and are never used here.
 */
export function poolHoldings(pool: PoolState): PoolBalances | undefined {
  if (pool.v3 === undefined) return { balance0: pool.reserve0, balance1: pool.reserve1 };
  return pool.v3State?.balances;
}
