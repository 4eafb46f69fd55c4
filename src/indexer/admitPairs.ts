import { findPairCreations } from "../chain/findPairCreations.js";
import type { Address, Pair, PairCreation, Token } from "../domain/types.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { ensureTokens } from "./ensureTokens.js";

/**
 * Accepts checked pools (`info` undefined: not a pair of a configured factory) whose tokens are
 * readable ERC-20s and refuses the rest for good; returns the accepted ones. A token lookup
 * passes the token it already read; a range read, the block of each pool's first log in it
 * (`firstSeen`: where the search for a pool's creation starts, see findPairCreations).
 */
export async function admitPairs(
  ctx: IndexerContext,
  checked: readonly { address: Address; info: Pair | undefined }[],
  prefetched?: Token,
  firstSeen?: ReadonlyMap<Address, bigint>,
): Promise<Pair[]> {
  const accepted: Pair[] = [];
  const refused: Address[] = [];
  for (const { address, info } of checked) {
    if (info === undefined) refused.push(address);
    else accepted.push(info);
  }
  // A pair whose token is not a readable ERC-20 cannot be priced or shown: refuse it too. Only
  // a definite "not an ERC-20" (or unusable metadata) refuses for good; RPC trouble (thrown)
  // retries the range. One metadata read for all the pairs' new tokens.
  const refusedTokens = await ensureTokens(
    ctx,
    accepted.flatMap((pair) => [pair.token0, pair.token1]),
    prefetched === undefined ? [] : [prefetched],
  );
  const usable: Pair[] = [];
  for (const pair of accepted) {
    const error = refusedTokens.get(pair.token0) ?? refusedTokens.get(pair.token1);
    if (error === undefined) {
      usable.push(pair);
      continue;
    }
    ctx.log.warn(
      { network: ctx.network, pair: pair.address, err: error.message },
      "pair refused: token is not an ERC-20",
    );
    refused.push(pair.address);
  }
  const created = await findCreations(ctx, usable, firstSeen);
  for (const [i, pair] of usable.entries()) {
    const creation = created.get(pair.address);
    if (creation !== undefined) usable[i] = { ...pair, created: creation };
  }
  for (const pair of usable) ctx.pairs.set(pair.address, pair);
  for (const address of refused) ctx.rejected.add(address);
  if (refused.length > 0) await ctx.store.addRejectedPairs(ctx.network, refused);
  return usable;
}

/**
 * The creation logs of newly accepted pools (findPairCreations: one eth_getLogs for all of them,
 * or a search on a provider capping eth_getLogs ranges). RPC trouble costs the pools their
 * creation fields, not their admission: logged, and they stay without (listings omit the fields).
 */
async function findCreations(
  ctx: IndexerContext,
  pairs: readonly Pair[],
  firstSeen: ReadonlyMap<Address, bigint> | undefined,
): Promise<Map<Address, PairCreation>> {
  if (pairs.length === 0) return new Map();
  try {
    return await findPairCreations(ctx.client, pairs, {
      network: ctx.network,
      log: ctx.log,
      ...(firstSeen === undefined ? {} : { seenAt: firstSeen }),
    });
  } catch (error) {
    ctx.log.warn(
      {
        network: ctx.network,
        pools: pairs.length,
        err: error instanceof Error ? error.message : String(error),
      },
      "pool creation logs not read",
    );
    return new Map();
  }
}
