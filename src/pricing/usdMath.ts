import type { Address } from "../domain/types.js";
import type { PoolIndex, PoolState, PricingParams } from "./types.js";

const POW10: bigint[] = Array.from({ length: 78 }, (_, i) => 10n ** BigInt(i));

/** 10^decimals as a bigint (cached for the usual range). */
export function pow10(decimals: number): bigint {
  return POW10[decimals] ?? 10n ** BigInt(decimals);
}

/** USD value (10^18-scaled) of `amount` smallest units of a token priced at `priceUsd` per whole token. */
export function amountToUsd(amount: bigint, decimals: number, priceUsd: bigint): bigint {
  return (amount * priceUsd) / pow10(decimals);
}

/** A pool's reserves seen from `token`'s side: [reserve of token, reserve of the other token]. */
export function reservesFor(pool: PoolState, token: Address): [bigint, bigint] {
  return pool.token0 === token ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
}

interface CacheEntry {
  version: number;
  params: PricingParams;
  values: Map<string, bigint | undefined>;
}

// Prices derived from one version of an index: any pool update bumps the version and drops
// them, so a cached price is never stale; repeated lookups between updates (a trade's two
// sides, an API request's tokens) are computed once.
const caches = new WeakMap<PoolIndex, CacheEntry>();

/** Returns the price under `key` for the index's current version, computing it at most once. */
export function memoPrice(
  index: PoolIndex,
  params: PricingParams,
  key: string,
  compute: () => bigint | undefined,
): bigint | undefined {
  let entry = caches.get(index);
  if (entry === undefined || entry.version !== index.version || entry.params !== params) {
    entry = { version: index.version, params, values: new Map() };
    caches.set(index, entry);
  }
  if (entry.values.has(key)) return entry.values.get(key);
  const value = compute();
  entry.values.set(key, value);
  return value;
}
