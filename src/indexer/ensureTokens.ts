import { readTokenMetadatas } from "../chain/readTokenMetadatas.js";
import type { Address, Token } from "../domain/types.js";
import { InvalidTokenMetadataError, NotErc20Error } from "../errors.js";
import type { IndexerContext } from "./createIndexerContext.js";

/**
 * Reads (all in one eth_call) and stores the tokens not known yet; `prefetched` ones (read by a
 * lookup) are stored as they are. Returns the tokens refused for good (not an ERC-20, unusable
 * metadata) with their error; RPC trouble is thrown.
 */
export async function ensureTokens(
  ctx: IndexerContext,
  addresses: Iterable<Address>,
  prefetched: readonly Token[] = [],
): Promise<Map<Address, Error>> {
  const { tokens, network } = ctx;
  const missing = [...new Set(addresses)].filter((address) => !tokens.has(address));
  const known = missing.flatMap((address) => prefetched.filter((token) => token.address === address));
  const unread = missing.filter((address) => !known.some((token) => token.address === address));
  const fetched = await readTokenMetadatas(ctx.client, unread, { network });
  const refused = new Map<Address, Error>();
  const read = [...known];
  for (const [i, outcome] of fetched.entries()) {
    if (!(outcome instanceof Error)) read.push(outcome);
    else if (outcome instanceof NotErc20Error || outcome instanceof InvalidTokenMetadataError)
      refused.set(unread[i]!, outcome);
    else throw outcome;
  }
  for (const token of read) tokens.set(token.address as Address, token);
  if (read.length > 0) {
    await ctx.store.upsertTokens(network, read);
    ctx.views.addTokens(network, read);
  }
  return refused;
}
