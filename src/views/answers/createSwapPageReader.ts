import { NATIVE, type NetworkName, type Token, type TokenRef } from "../../domain/types.js";
import { listSwaps } from "../listSwaps.js";
import { nativeToken } from "../nativeToken.js";
import type { MarketDiscovery, MarketHistory, MarketState } from "../types.js";
import { type ExportSwapNode, type SwapPage, swapNodeOf } from "./swapRow.js";

/**
 * Swaps per page of a streamed list (default): reading and rendering a page costs a few µs a swap,
 * so 250 keep each turn of the event loop short and other requests answered meanwhile. Larger
 * pages were no faster: a page's objects then outlive more young-generation collections.
 */
export const STREAM_PAGE_SIZE = 250;

/** What the swap lists read: status and tokens from memory, pages from the store, an unknown token from the chain. */
export type SwapListReader = MarketState & MarketHistory & Pick<MarketDiscovery, "resolveTokenAddress">;

/** What a page of a swap list is read within: [from, to) (unix seconds; null: no end) at or below a block. */
export interface SwapBounds {
  from: number;
  to: number | null;
  atBlock: bigint | undefined;
}

/** Reads one keyset page of a list: `first` swaps after the cursor `after`, with their tokens. */
export type SwapPageReader = (
  bounds: SwapBounds,
  first: number,
  after: string | null,
) => Promise<SwapPage<ExportSwapNode>>;

/**
 * Creates the page reader of one list of a network (a request, or a settled hour's rendering):
 * each page is one listSwaps read judged at `nowMs` (as GraphQL's `swaps`: 503 once the network
 * stops serving), its trades with their tokens' metadata, each token looked up once a list (the
 * views know every traded token; an unknown one is read from the chain, as GraphQL loads it).
 * A settled hour's pages are `settled` (listSwaps): read while the network backfills too.
 */
export function createSwapPageReader(
  reader: SwapListReader,
  network: NetworkName,
  nowMs: number,
  options: { settled?: boolean } = {},
): SwapPageReader {
  const tokens = new Map<TokenRef, Token>();
  const lookUp = async (ref: TokenRef): Promise<Token> =>
    ref === NATIVE
      ? nativeToken(reader.getConfig(network))
      : (reader.getToken(network, ref) ?? (await reader.resolveTokenAddress(network, ref)));

  return async ({ from, to, atBlock }, first, after) => {
    const page = await listSwaps(reader, { network, from, to, first, after, atBlock }, nowMs, options);
    const missing = new Set<TokenRef>();
    for (const { node } of page.edges) {
      if (!tokens.has(node.tokenIn)) missing.add(node.tokenIn);
      if (!tokens.has(node.tokenOut)) missing.add(node.tokenOut);
    }
    const asked = [...missing];
    const found = await Promise.all(asked.map(lookUp));
    for (const [i, ref] of asked.entries()) tokens.set(ref, found[i]!);
    return {
      pageInfo: page.pageInfo,
      edges: page.edges.map(({ node }) => ({
        node: swapNodeOf(node, tokens.get(node.tokenIn)!, tokens.get(node.tokenOut)!),
      })),
    };
  };
}
