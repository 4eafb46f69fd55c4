import { readPairInfos } from "../chain/readPairInfos.js";
import { readV3PoolInfos } from "../chain/readV3PoolInfos.js";
import type { Address, Pair } from "../domain/types.js";
import { admitPairs } from "./admitPairs.js";
import type { IndexerContext } from "./createIndexerContext.js";

/**
 * Checks unknown pool addresses against the configured factories, each by the family its logs
 * show (a V2 pair's Swap/Sync, a V3 pool's); returns the newly accepted ones. `firstSeen`: a block
 * at which a pool exists (its first log in the range read), where known.
 */
export async function classifyPairs(
  ctx: IndexerContext,
  addresses: ReadonlyMap<Address, "v2" | "v3"> | Iterable<Address>,
  firstSeen?: ReadonlyMap<Address, bigint>,
): Promise<Pair[]> {
  const families: ReadonlyMap<Address, "v2" | "v3"> =
    addresses instanceof Map ? addresses : new Map([...addresses].map((address) => [address, "v2" as const]));
  const unknown = [...families.keys()].filter(
    (address) => !ctx.pairs.has(address) && !ctx.rejected.has(address),
  );
  if (unknown.length === 0) return [];
  const v2 = unknown.filter((address) => families.get(address) === "v2");
  const v3 = unknown.filter((address) => families.get(address) === "v3");
  // Two eth_calls per family for all of them: the pools' getters, then the claimed factories'.
  const v2Factories = ctx.factories.filter((dex) => dex.kind === "uniswap-v2");
  const v3Factories = ctx.factories.filter((dex) => dex.kind !== "uniswap-v2");
  const [v2Infos, v3Infos] = await Promise.all([
    v2.length === 0 || v2Factories.length === 0
      ? v2.map(() => undefined)
      : readPairInfos(ctx.client, v2, v2Factories),
    v3.length === 0 || v3Factories.length === 0
      ? v3.map(() => undefined)
      : readV3PoolInfos(ctx.client, v3, v3Factories),
  ]);
  return admitPairs(
    ctx,
    [
      ...v2.map((address, i) => ({ address, info: v2Infos[i] })),
      ...v3.map((address, i) => ({ address, info: v3Infos[i] })),
    ],
    undefined,
    firstSeen,
  );
}
