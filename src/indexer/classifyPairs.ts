import { readPairInfos } from "../chain/readPairInfos.js";
import type { Address, Pair } from "../domain/types.js";
import { admitPairs } from "./admitPairs.js";
import type { IndexerContext } from "./createIndexerContext.js";

/** Checks unknown pool addresses against the configured factories; returns the newly accepted ones. */
export async function classifyPairs(ctx: IndexerContext, addresses: Iterable<Address>): Promise<Pair[]> {
  const unknown = [...new Set(addresses)].filter(
    (address) => !ctx.pairs.has(address) && !ctx.rejected.has(address),
  );
  if (unknown.length === 0) return [];
  // Two eth_calls for all of them: the pools' getters, then the claimed factories' getPair.
  const infos = await readPairInfos(ctx.client, unknown, ctx.factories);
  return admitPairs(
    ctx,
    unknown.map((address, i) => ({ address, info: infos[i] })),
  );
}
