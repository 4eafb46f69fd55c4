import type { Address, NetworkName } from "../../domain/types.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import { getPoolLiquidityUsd } from "../getPoolLiquidityUsd.js";
import type { MarketReader } from "../types.js";
import { ambiguousPairId, parsePairId, wrongPairId } from "./parsePairId.js";

/**
 * The addresses of the indexed pools of token0 `base` and token1 `target`, in the pools query's
 * order (USD liquidity, highest first, unpriced last, then by address): what an ambiguous id's
 * 400 lists.
 */
function poolsOfPair(reader: MarketReader, network: NetworkName, base: string, target: string): string[] {
  const ranked = reader
    .getPoolIndex(network)
    .all()
    .filter((pool) => pool.token0 === base && pool.token1 === target)
    .map((pool) => ({ address: pool.address, key: getPoolLiquidityUsd(reader, network, pool) ?? -1n }));
  ranked.sort((a, b) => (a.key === b.key ? (a.address < b.address ? -1 : 1) : a.key > b.key ? -1 : 1));
  return ranked.map((pool) => pool.address);
}

/**
 * The base, target and pool a pair id names (`param` names the parameter in errors): the pool
 * itself for base_target_pool; for base_target, the one indexed pool of those tokens (400 when
 * there is none or several; 503 when the network does not serve at `nowMs`). Whether the pool
 * holds those tokens is the caller's check.
 */
export function resolvePairPool(
  reader: MarketReader,
  network: NetworkName,
  pairId: string,
  param: string,
  nowMs: number,
): { base: string; target: string; pool: Address } {
  const { base, target, pool } = parsePairId(pairId, param);
  if (pool !== undefined) return { base, target, pool: pool as Address };
  assertNetworkReady(reader, network, nowMs);
  const pools = poolsOfPair(reader, network, base, target);
  if (pools.length === 0) throw wrongPairId(param);
  if (pools.length > 1) throw ambiguousPairId(param, pools);
  return { base, target, pool: pools[0] as Address };
}
