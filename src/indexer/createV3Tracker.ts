import type { Address, Pair, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import type { PoolIndex, V3State } from "../pricing/types.js";
import { applyLiquidityChange } from "../pricing/v3/applyLiquidityChange.js";
import { createTickTable, type TickTable } from "../pricing/v3/createTickTable.js";
import { v3PoolState } from "../views/buildPoolStates.js";
import type { RangeEvent } from "./rangeEvents.js";

/** A V3 pool with no event and no snapshot yet: no price, no liquidity. */
const UNINITIALIZED: V3State = { sqrtPriceX96: 0n, tick: 0, liquidity: 0n, ticks: createTickTable() };

/** V3 pools' states read from the chain at `block` (just before a range). */
export interface V3Snapshots {
  block: bigint;
  states: ReadonlyMap<Address, V3State>;
}

/** Applies a range's V3 events to the pool graph and records the rows the store keeps. */
export interface V3Tracker {
  /** Applies one event of a V3 pool (Initialize, Swap, Mint, Burn); other events are ignored. */
  apply(event: RangeEvent): void;
  /** Price and active liquidity after each pool's last event in each block. */
  prices(): V3PoolPrice[];
  /** Each tick a Mint or Burn changed, as it stands after each block. */
  ticks(): V3TickLiquidity[];
}

/**
 * Creates the V3 part of a range's decoding. Each pool starts from its state in `pools` (the
 * live graph under an overlay), else from `snapshots` (read from the chain just before the range
 * for a pool created earlier), else uninitialized (it is created in the range). States are never
 * changed in place: a pool's ticks are copied once per range before the first Mint or Burn, so a
 * range that is read again leaves the live graph as it was.
 */
export function createV3Tracker(
  pools: PoolIndex,
  pairs: ReadonlyMap<Address, Pair>,
  snapshots: V3Snapshots = { block: 0n, states: new Map() },
): V3Tracker {
  const owned = new Map<Address, TickTable>();
  const prices = new Map<string, V3PoolPrice>();
  const ticks = new Map<string, V3TickLiquidity>();

  const used = new Set<Address>();
  const current = (pool: Address): V3State => {
    const live = pools.get(pool)?.v3State;
    if (live !== undefined) return live;
    const snapshot = snapshots.states.get(pool);
    if (snapshot === undefined) return UNINITIALIZED;
    if (!used.has(pool)) {
      // What was read of the chain goes to the store as rows of the block it was read at, so a
      // restart or an API replica rebuilds the same state.
      used.add(pool);
      const { block } = snapshots;
      prices.set(`${pool}:${block}`, { pool, blockNumber: block, logIndex: 0, ...priceOf(snapshot) });
      for (const [tick, info] of snapshot.ticks.entries()) record(pool, block, { tick, ...info });
    }
    return snapshot;
  };
  const priceOf = (state: V3State) => ({
    sqrtPriceX96: state.sqrtPriceX96,
    tick: state.tick,
    liquidity: state.liquidity,
  });

  const publish = (pool: Address, state: V3State, block: bigint, logIndex: number): void => {
    pools.update(v3PoolState(pairs.get(pool)!, state));
    prices.set(`${pool}:${block}`, {
      pool,
      blockNumber: block,
      logIndex,
      sqrtPriceX96: state.sqrtPriceX96,
      tick: state.tick,
      liquidity: state.liquidity,
    });
  };

  const ownTicks = (pool: Address, state: V3State): TickTable => {
    let own = owned.get(pool);
    if (own === undefined || own !== state.ticks) {
      own = state.ticks.clone();
      owned.set(pool, own);
    }
    return own;
  };

  const record = (
    pool: Address,
    block: bigint,
    tick: { tick: number; liquidityNet: bigint; liquidityGross: bigint },
  ) => {
    ticks.set(`${pool}:${tick.tick}:${block}`, { pool, blockNumber: block, ...tick });
  };

  return {
    apply(event) {
      switch (event.kind) {
        case "v3init": {
          const state = current(event.pair);
          publish(
            event.pair,
            { ...state, sqrtPriceX96: event.sqrtPriceX96, tick: event.tick },
            event.blockNumber,
            event.logIndex,
          );
          return;
        }
        case "swap": {
          if (event.v3 === undefined) return;
          const state = current(event.pair);
          publish(event.pair, { ...state, ...event.v3 }, event.blockNumber, event.logIndex);
          return;
        }
        case "v3mint":
        case "v3burn": {
          if (event.amount === 0n) return;
          const state = current(event.pool);
          const delta = event.kind === "v3mint" ? event.amount : -event.amount;
          const change = applyLiquidityChange(state, event.tickLower, event.tickUpper, delta);
          const own = ownTicks(event.pool, state);
          for (const bound of [change.lower, change.upper]) {
            own.set(bound.tick, bound.liquidityNet, bound.liquidityGross);
            record(event.pool, event.blockNumber, bound);
          }
          publish(
            event.pool,
            { ...state, liquidity: change.liquidity, ticks: own },
            event.blockNumber,
            event.logIndex,
          );
          return;
        }
        default:
          return;
      }
    },
    prices: () => [...prices.values()],
    ticks: () => [...ticks.values()],
  };
}
