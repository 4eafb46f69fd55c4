import type { Address } from "../domain/types.js";
import { createPoolIndex } from "./createPoolIndex.js";
import type { PoolIndex, PoolState } from "./types.js";

/** A PoolIndex that reads through to a base index and keeps its own changes apart. */
export interface PoolOverlay extends PoolIndex {
  /** The pools this overlay changed or added, latest state of each. */
  changes(): PoolState[];
}

/**
 * Creates a copy-on-write view of `base`: a range is decoded and priced against it (every Sync
 * of the range applied in order) while the live graph the API reads stays untouched until the
 * range has been committed; then `changes()` are applied to the live graph. O(changes) memory.
 */
export function createPoolOverlay(base: PoolIndex): PoolOverlay {
  // Pools of the base whose reserves changed; pools the base does not hold live in `added`.
  const changed = new Map<Address, PoolState>();
  const added = createPoolIndex();
  let version = 0;

  const through = (pools: readonly PoolState[]): PoolState[] =>
    pools.map((pool) => changed.get(pool.address) ?? pool);
  // The base's pools as changed here, then this overlay's own: one new list (pricing asks this
  // for every trade of a range being decoded).
  const merged = (fromBase: readonly PoolState[], own: readonly PoolState[]): readonly PoolState[] => {
    if (changed.size === 0) return own.length === 0 ? fromBase : [...fromBase, ...own];
    const pools = through(fromBase);
    for (const pool of own) pools.push(pool);
    return pools;
  };

  return {
    get version() {
      return version;
    },
    update(pool) {
      if (base.get(pool.address) !== undefined && added.get(pool.address) === undefined) {
        changed.set(pool.address, pool);
      } else {
        added.update(pool);
      }
      version++;
    },
    remove() {
      throw new Error("a pool overlay never removes pools: a reorg reloads the live graph instead");
    },
    get: (pair) => added.get(pair) ?? changed.get(pair) ?? base.get(pair),
    poolsOf: (token) => merged(base.poolsOf(token), added.poolsOf(token)),
    poolsBetween: (a, b) => merged(base.poolsBetween(a, b), added.poolsBetween(a, b)),
    all: () => [...through(base.all()), ...added.all()],
    changes: () => [...changed.values(), ...added.all()],
  };
}
