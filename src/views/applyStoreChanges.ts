import type { NetworkName } from "../domain/types.js";
import type { PoolIndex } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import { advanceV3State, v3PoolState } from "./buildPoolStates.js";

/**
 * Applies to `index` what the store holds since `sinceBlock`: V2 reserves, V3 prices and the V3
 * ticks that changed (a follower between full reloads). False, with nothing applied, when a pool
 * is new here: the caller reloads every pool then.
 */
export async function applyStoreChanges(
  store: Store,
  index: PoolIndex,
  network: NetworkName,
  sinceBlock: bigint,
): Promise<boolean> {
  const [reserves, prices, ticks] = await Promise.all([
    store.listReserves(network, sinceBlock),
    store.listV3Prices(network, sinceBlock),
    store.listV3Ticks(network, sinceBlock),
  ]);
  const pools = new Set([
    ...reserves.map((row) => row.pair),
    ...prices.map((row) => row.pool),
    ...ticks.map((row) => row.pool),
  ]);
  if ([...pools].some((pool) => index.get(pool) === undefined)) return false;
  for (const row of reserves) {
    index.update({ ...index.get(row.pair)!, reserve0: row.reserve0, reserve1: row.reserve1 });
  }
  const priceOf = new Map(prices.map((row) => [row.pool, row]));
  const ticksOf = new Map<string, typeof ticks>();
  for (const row of ticks) ticksOf.set(row.pool, [...(ticksOf.get(row.pool) ?? []), row]);
  for (const pool of pools) {
    const before = index.get(pool)!;
    if (before.v3State === undefined) continue;
    index.update(
      v3PoolState(before, advanceV3State(before.v3State, priceOf.get(pool), ticksOf.get(pool) ?? [])),
    );
  }
  return true;
}
