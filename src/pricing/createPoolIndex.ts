import type { Address } from "../domain/types.js";
import type { PoolState } from "./types.js";

/** Pools by address, by token and by token pair, kept current one pool at a time. */
export interface PoolIndex {
  /** Increases on every change, so callers can cache derived values (prices) per version. */
  readonly version: number;
  readonly size: number;
  /** Adds or replaces a pool (by address). Call it after every reserve change: the index does not watch objects. */
  update(pool: PoolState): void;
  /** Removes a pool (e.g. on a reorg that undid its creation). */
  remove(pair: Address): void;
  get(pair: Address): PoolState | undefined;
  /** Every pool that holds `token`. */
  poolsOf(token: Address): Iterable<PoolState>;
  /** Every pool between `a` and `b` (any DEX), in either token order. */
  poolsBetween(a: Address, b: Address): Iterable<PoolState>;
  all(): Iterable<PoolState>;
}

const EMPTY: ReadonlyMap<Address, PoolState> = new Map();

// Order-independent key of a token pair.
function pairKey(a: Address, b: Address): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

function addTo<K>(map: Map<K, Map<Address, PoolState>>, key: K, pool: PoolState): void {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  inner.set(pool.address, pool);
}

function removeFrom<K>(map: Map<K, Map<Address, PoolState>>, key: K, pair: Address): void {
  const inner = map.get(key);
  if (inner === undefined) return;
  inner.delete(pair);
  if (inner.size === 0) map.delete(key);
}

/**
 * Creates an index of pools by token and token pair (addresses are expected lowercase, as the
 * domain types say), so routing and USD pricing never scan every pool.
 */
export function createPoolIndex(pools: readonly PoolState[] = []): PoolIndex {
  const byAddress = new Map<Address, PoolState>();
  const byToken = new Map<Address, Map<Address, PoolState>>();
  const byPair = new Map<string, Map<Address, PoolState>>();
  let version = 0;

  function remove(pair: Address): void {
    const old = byAddress.get(pair);
    if (old === undefined) return;
    byAddress.delete(pair);
    removeFrom(byToken, old.token0, pair);
    removeFrom(byToken, old.token1, pair);
    removeFrom(byPair, pairKey(old.token0, old.token1), pair);
    version++;
  }

  function update(pool: PoolState): void {
    const old = byAddress.get(pool.address);
    if (old !== undefined && (old.token0 !== pool.token0 || old.token1 !== pool.token1)) remove(pool.address);
    byAddress.set(pool.address, pool);
    addTo(byToken, pool.token0, pool);
    addTo(byToken, pool.token1, pool);
    addTo(byPair, pairKey(pool.token0, pool.token1), pool);
    version++;
  }

  for (const pool of pools) update(pool);

  return {
    get version() {
      return version;
    },
    get size() {
      return byAddress.size;
    },
    update,
    remove,
    get: (pair) => byAddress.get(pair),
    poolsOf: (token) => (byToken.get(token) ?? EMPTY).values(),
    poolsBetween: (a, b) => (byPair.get(pairKey(a, b)) ?? EMPTY).values(),
    all: () => byAddress.values(),
  };
}
