import type { Address, Pair, PairReserves, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import type { PoolState, V3State } from "../pricing/types.js";
import { createTickTable, type TickTable } from "../pricing/v3/createTickTable.js";
import { v3VirtualReserves } from "../pricing/v3/v3VirtualReserves.js";

/** What the store holds of a network's pools: pairs, V2 reserves, V3 prices and ticks (the newest rows). */
export interface StoredPools {
  pairs: readonly Pair[];
  reserves: readonly PairReserves[];
  v3Prices: readonly V3PoolPrice[];
  v3Ticks: readonly V3TickLiquidity[];
}

/** The pool graph's states from the store's newest rows: V2 reserves, V3 price, liquidity and ticks. */
export function buildPoolStates(stored: StoredPools): PoolState[] {
  const reserves = new Map(stored.reserves.map((row) => [row.pair, row]));
  const prices = new Map(stored.v3Prices.map((row) => [row.pool, row]));
  const ticks = new Map<Address, TickTable>();
  for (const row of stored.v3Ticks) {
    if (row.liquidityGross === 0n) continue;
    let own = ticks.get(row.pool);
    if (own === undefined) {
      own = createTickTable();
      ticks.set(row.pool, own);
    }
    own.set(row.tick, row.liquidityNet, row.liquidityGross);
  }
  return stored.pairs.map((pair): PoolState => {
    if (pair.v3 === undefined) {
      const row = reserves.get(pair.address);
      return { ...pair, reserve0: row?.reserve0 ?? 0n, reserve1: row?.reserve1 ?? 0n };
    }
    const price = prices.get(pair.address);
    return v3PoolState(pair, {
      sqrtPriceX96: price?.sqrtPriceX96 ?? 0n,
      tick: price?.tick ?? 0,
      liquidity: price?.liquidity ?? 0n,
      ticks: ticks.get(pair.address) ?? createTickTable(),
      ...(price?.balances === undefined ? {} : { balances: price.balances }),
    });
  });
}

/** A V3 pool's graph state: its virtual reserves at the price, and the state quotes walk. */
export function v3PoolState(pair: Pair, state: V3State): PoolState {
  const [reserve0, reserve1] = v3VirtualReserves(state.sqrtPriceX96, state.liquidity);
  return { ...pair, reserve0, reserve1, v3State: state };
}

/**
 * A V3 pool's state after the store's rows that changed since the last read: the newest price
 * row (if any) and each changed tick (gross 0: the tick left). Copies; `before` is not changed.
 */
export function advanceV3State(
  before: V3State,
  price: V3PoolPrice | undefined,
  changedTicks: readonly V3TickLiquidity[],
): V3State {
  let ticks = before.ticks;
  if (changedTicks.length > 0) {
    const own = before.ticks.clone();
    for (const row of changedTicks) own.set(row.tick, row.liquidityNet, row.liquidityGross);
    ticks = own;
  }
  return price === undefined
    ? { ...before, ticks }
    : {
        sqrtPriceX96: price.sqrtPriceX96,
        tick: price.tick,
        liquidity: price.liquidity,
        ticks,
        ...(price.balances === undefined ? {} : { balances: price.balances }),
      };
}
