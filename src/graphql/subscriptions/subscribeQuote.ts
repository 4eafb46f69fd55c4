import { NotReadyError } from "../../errors.js";
import { assertNetworkConfigured } from "../../views/assertNetworkReady.js";
import { getQuote, type QuoteArgs, type QuoteResult } from "../../views/getQuote.js";
import { quoteOrNoRouteError } from "../../views/quoteOrNoRouteError.js";
import type { MarketDiscovery, MarketFeed, MarketState } from "../../views/types.js";
import { STATUS_HEARTBEAT_MS, watchMarket } from "./watchMarket.js";

/**
 * Subscription.quote: Query.quote's answer at once, then again after each indexed block that
 * changes its amount, price or route. While the network does not serve, nothing is sent; any
 * other error (a bad token, no route) ends the stream with it.
 */
export function subscribeQuote(
  reader: MarketState & MarketDiscovery & MarketFeed,
  args: QuoteArgs,
): AsyncIterableIterator<QuoteResult> {
  assertNetworkConfigured(reader, args.network);
  let last: string | undefined;
  let lastBlock: bigint | undefined;
  const next = async (): Promise<QuoteResult | undefined> => {
    const block = reader.poolsBlock(args.network);
    if (last !== undefined && block === lastBlock) return undefined;
    let quote: QuoteResult;
    try {
      quote = quoteOrNoRouteError(await getQuote(reader, args));
    } catch (error) {
      if (error instanceof NotReadyError) return undefined;
      throw error;
    }
    lastBlock = block;
    const key = `${quote.buyAmount}|${quote.price}|${quote.route.pools.map((pool) => pool.address).join(",")}`;
    if (key === last) return undefined;
    last = key;
    return quote;
  };
  return watchMarket(reader, args.network, {
    initial: next,
    map: (event) => (event.type === "indexed" ? next() : undefined),
    // A network that starts serving without a new block (backfill done, data fresh again).
    tick: { ms: STATUS_HEARTBEAT_MS, value: () => (last === undefined ? next() : undefined) },
  });
}
