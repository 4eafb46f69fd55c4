import type { Address, Pair, PoolBalances, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import type { PoolIndex, V3State } from "../pricing/types.js";
import { applyLiquidityChange } from "../pricing/v3/applyLiquidityChange.js";
import { createTickTable, type TickTable } from "../pricing/v3/createTickTable.js";
import { v3PoolState } from "../views/buildPoolStates.js";
import type { RangeEvent } from "./rangeEvents.js";

/**
 * A V3 pool with no event and no snapshot yet: no price, no liquidity, and nothing held (it is
 * created in the range: its logs from the first on say every token that comes in or goes out).
 */
const UNINITIALIZED: V3State = {
  sqrtPriceX96: 0n,
  tick: 0,
  liquidity: 0n,
  ticks: createTickTable(),
  balances: { balance0: 0n, balance1: 0n },
};

/** V3 pools' states read from the chain at `block` (just before a range). */
export interface V3Snapshots {
  block: bigint;
  states: ReadonlyMap<Address, V3State>;
  /**
   * Token balances read at `block` of pools whose state the indexer has but whose balances it
   * does not (stored before schema version 9), with or without an event in the range.
   */
  balances?: ReadonlyMap<Address, PoolBalances>;
}

/** Applies a range's V3 events to the pool graph and records the rows the store keeps. */
export interface V3Tracker {
  /**
   * Applies one event of a V3 pool (Initialize, Swap, Mint, Burn, Collect, CollectProtocol,
   * Flash); other events are ignored. Returns the pool's token balances right after it when known.
   */
  apply(event: RangeEvent): PoolBalances | undefined;
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
    if (live !== undefined) {
      const read = live.balances === undefined ? snapshots.balances?.get(pool) : undefined;
      if (read === undefined) return live;
      // Balances read at the block before the range, recorded as that block's row with the price
      // the pool had there (the live state is the state at the range's start).
      const known = { ...live, balances: read };
      const { block } = snapshots;
      prices.set(`${pool}:${block}`, { pool, blockNumber: block, logIndex: -1, ...priceOf(known) });
      return known;
    }
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

  const publish = (
    pool: Address,
    state: V3State,
    block: bigint,
    logIndex: number,
  ): PoolBalances | undefined => {
    pools.update(v3PoolState(pairs.get(pool)!, state));
    prices.set(`${pool}:${block}`, { pool, blockNumber: block, logIndex, ...priceOf(state) });
    return state.balances;
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
          return publish(
            event.pair,
            { ...state, sqrtPriceX96: event.sqrtPriceX96, tick: event.tick },
            event.blockNumber,
            event.logIndex,
          );
        }
        case "swap": {
          if (event.v3 === undefined) return undefined;
          const state = current(event.pair);
          const change = moved(state, event.amount0In - event.amount0Out, event.amount1In - event.amount1Out);
          return publish(event.pair, { ...state, ...event.v3, ...change }, event.blockNumber, event.logIndex);
        }
        case "v3balance": {
          const state = current(event.pool);
          const change = moved(state, event.amount0, event.amount1);
          return publish(event.pool, { ...state, ...change }, event.blockNumber, event.logIndex);
        }
        case "v3mint":
        case "v3burn": {
          const state = current(event.pool);
          // A Mint brings its amounts in; a Burn moves tokens to the position's owed amounts, still
          // held until its Collect.
          const held = event.kind === "v3mint" ? moved(state, event.amount0, event.amount1) : {};
          if (event.amount === 0n) {
            return event.kind === "v3mint"
              ? publish(event.pool, { ...state, ...held }, event.blockNumber, event.logIndex)
              : state.balances;
          }
          const delta = event.kind === "v3mint" ? event.amount : -event.amount;
          const change = applyLiquidityChange(state, event.tickLower, event.tickUpper, delta);
          const own = ownTicks(owned, event.pool, state);
          for (const bound of [change.lower, change.upper]) {
            own.set(bound.tick, bound.liquidityNet, bound.liquidityGross);
            record(event.pool, event.blockNumber, bound);
          }
          return publish(
            event.pool,
            { ...state, liquidity: change.liquidity, ticks: own, ...held },
            event.blockNumber,
            event.logIndex,
          );
        }
        default:
          return undefined;
      }
    },
    prices: () => {
      // Balances read for pools with no event in the range (snapshotV3Pools' sweep): recorded as
      // rows of the block they were read at and published, as for pools with events.
      for (const pool of snapshots.balances?.keys() ?? []) {
        if (pools.get(pool)?.v3State?.balances !== undefined) continue;
        const known = current(pool);
        if (known.balances !== undefined) pools.update(v3PoolState(pairs.get(pool)!, known));
      }
      return [...prices.values()];
    },
    ticks: () => [...ticks.values()],
  };
}

/** The row fields of a pool's state: price, tick, liquidity and balances when known. */
function priceOf(state: V3State) {
  return {
    sqrtPriceX96: state.sqrtPriceX96,
    tick: state.tick,
    liquidity: state.liquidity,
    ...(state.balances === undefined ? {} : { balances: state.balances }),
  };
}

// What a log moved in or out of the pool (positive: in), added to what it held; unknown stays unknown.
function moved(state: V3State, amount0: bigint, amount1: bigint): Pick<V3State, "balances"> {
  return state.balances === undefined
    ? {}
    : {
        balances: {
          balance0: state.balances.balance0 + amount0,
          balance1: state.balances.balance1 + amount1,
        },
      };
}

/** The pool's tick table owned by this range (copied once from the state's, before changing it). */
function ownTicks(owned: Map<Address, TickTable>, pool: Address, state: V3State): TickTable {
  let own = owned.get(pool);
  if (own === undefined || own !== state.ticks) {
    own = state.ticks.clone();
    owned.set(pool, own);
  }
  return own;
}
