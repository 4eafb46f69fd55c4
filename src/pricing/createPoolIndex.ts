import type { Address } from "../domain/types.js";
import type { PoolIndex, PoolState } from "./types.js";

const EMPTY: readonly PoolState[] = Object.freeze([]);

// Order-independent key of a token pair.
function pairKey(a: Address, b: Address): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** A set of pools under one key, with its array view built lazily and dropped on change. */
class Bucket {
  readonly pools = new Map<Address, PoolState>();
  private view: readonly PoolState[] | undefined;

  set(pool: PoolState): void {
    this.pools.set(pool.address, pool);
    this.view = undefined;
  }

  delete(pair: Address): void {
    this.pools.delete(pair);
    this.view = undefined;
  }

  list(): readonly PoolState[] {
    this.view ??= [...this.pools.values()];
    return this.view;
  }
}

function addTo(map: Map<string, Bucket>, key: string, pool: PoolState): void {
  let bucket = map.get(key);
  if (bucket === undefined) {
    bucket = new Bucket();
    map.set(key, bucket);
  }
  bucket.set(pool);
}

function removeFrom(map: Map<string, Bucket>, key: string, pair: Address): void {
  const bucket = map.get(key);
  if (bucket === undefined) return;
  bucket.delete(pair);
  if (bucket.pools.size === 0) map.delete(key);
}

/**
 * Creates an index of pools by address, token and token pair (addresses lowercase, as the
 * domain types say), so routing and USD pricing look up the few pools they need instead of
 * scanning all of them. Updates are O(1); the array views are rebuilt lazily on read.
 */
export function createPoolIndex(pools: readonly PoolState[] = []): PoolIndex {
  const byAddress = new Map<Address, PoolState>();
  const byToken = new Map<string, Bucket>();
  const byPair = new Map<string, Bucket>();
  let allView: readonly PoolState[] | undefined;
  let version = 0;

  function remove(pair: Address): void {
    const old = byAddress.get(pair);
    if (old === undefined) return;
    byAddress.delete(pair);
    removeFrom(byToken, old.token0, pair);
    removeFrom(byToken, old.token1, pair);
    removeFrom(byPair, pairKey(old.token0, old.token1), pair);
    allView = undefined;
    version++;
  }

  function update(pool: PoolState): void {
    const old = byAddress.get(pool.address);
    if (old !== undefined && (old.token0 !== pool.token0 || old.token1 !== pool.token1)) remove(pool.address);
    byAddress.set(pool.address, pool);
    addTo(byToken, pool.token0, pool);
    addTo(byToken, pool.token1, pool);
    addTo(byPair, pairKey(pool.token0, pool.token1), pool);
    allView = undefined;
    version++;
  }

  for (const pool of pools) update(pool);

  return {
    get version() {
      return version;
    },
    update,
    remove,
    get: (pair) => byAddress.get(pair),
    poolsOf: (token) => byToken.get(token)?.list() ?? EMPTY,
    poolsBetween: (a, b) => byPair.get(pairKey(a, b))?.list() ?? EMPTY,
    all: () => {
      allView ??= [...byAddress.values()];
      return allView;
    },
  };
}

// Kept for modules that import the type from here; the contract lives in types.ts.
export type { PoolIndex };
