import type { Address, Pair, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import type { PoolIndex, V3State, V3Tick } from "../pricing/types.js";
import { v3PoolState } from "../views/buildPoolStates.js";
import type { RangeEvent } from "./rangeEvents.js";

/** A V3 pool with no event and no snapshot yet: no price, no liquidity. */
const UNINITIALIZED: V3State = { sqrtPriceX96: 0n, tick: 0, liquidity: 0n, ticks: new Map() };

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
  snapshots: ReadonlyMap<Address, V3State> = new Map(),
): V3Tracker {
  const owned = new Map<Address, Map<number, V3Tick>>();
  const prices = new Map<string, V3PoolPrice>();
  const ticks = new Map<string, V3TickLiquidity>();

  const current = (pool: Address): V3State =>
    pools.get(pool)?.v3State ?? snapshots.get(pool) ?? UNINITIALIZED;

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

  const ownTicks = (pool: Address, state: V3State): Map<number, V3Tick> => {
    let own = owned.get(pool);
    if (own === undefined || own !== state.ticks) {
      own = new Map(state.ticks);
      owned.set(pool, own);
    }
    return own;
  };

  // A position's bound: gross grows or shrinks by the amount, net by +-amount (lower: +, upper: -).
  const touch = (
    pool: Address,
    own: Map<number, V3Tick>,
    tick: number,
    grossDelta: bigint,
    netDelta: bigint,
    block: bigint,
  ): void => {
    const before = own.get(tick) ?? { liquidityNet: 0n, liquidityGross: 0n };
    const after = {
      liquidityNet: before.liquidityNet + netDelta,
      liquidityGross: before.liquidityGross + grossDelta,
    };
    if (after.liquidityGross === 0n) own.delete(tick);
    else own.set(tick, after);
    ticks.set(`${pool}:${tick}:${block}`, {
      pool,
      blockNumber: block,
      tick,
      liquidityNet: after.liquidityGross === 0n ? 0n : after.liquidityNet,
      liquidityGross: after.liquidityGross,
    });
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
          const own = ownTicks(event.pool, state);
          touch(event.pool, own, event.tickLower, delta, delta, event.blockNumber);
          touch(event.pool, own, event.tickUpper, delta, -delta, event.blockNumber);
          // The pool adds the position's liquidity to the active one when its tick is in range.
          const inRange = state.tick >= event.tickLower && state.tick < event.tickUpper;
          const liquidity = inRange ? state.liquidity + delta : state.liquidity;
          publish(event.pool, { ...state, liquidity, ticks: own }, event.blockNumber, event.logIndex);
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
