import { comparePositions, endOfBlock, type TradePosition } from "../../domain/market.js";
import type { Address, NetworkName, TokenRef, Trade } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { assertNetworkConfigured } from "../../views/assertNetworkReady.js";
import { parseSwapFilter } from "../../views/listSwaps.js";
import type { MarketFeed, MarketHistory, MarketState } from "../../views/types.js";
import { watchMarket } from "./watchMarket.js";

/** One event of Subscription.swaps, as SwapFeedEvent resolves it. */
export interface SwapFeedEventSource {
  type: "ADDED" | "REMOVED";
  network: NetworkName;
  blockNumber: bigint;
  swaps: readonly Trade[];
}

function matches(trade: Trade, filter: { token?: TokenRef; sender?: Address }): boolean {
  if (filter.sender !== undefined && trade.sender !== filter.sender) return false;
  if (filter.token !== undefined && trade.tokenIn !== filter.token && trade.tokenOut !== filter.token)
    return false;
  return true;
}

/**
 * Most swaps a subscription resumed with `afterBlock` is sent from the store before it goes live.
 * @internal exported for tests, which pin this limit.
 */
export const MAX_REPLAYED_SWAPS = 10_000;
const REPLAY_PAGE = 1_000;

/**
 * Subscription.swaps: the trades of each newly applied block that match the filters, and the
 * matching trades a reorg withdrew. Filters are checked before anything is sent (400). With
 * `afterBlock`, the stored matching trades above that block up to where the live events start
 * are sent first (at most MAX_REPLAYED_SWAPS, else the stream ends with BAD_REQUEST), so a
 * client that reconnects with the last block it saw misses nothing and gets nothing twice.
 */
export function subscribeSwaps(
  reader: MarketState & MarketHistory & MarketFeed,
  args: { network: NetworkName; token?: string | null; trader?: string | null; afterBlock?: bigint | null },
): AsyncIterableIterator<SwapFeedEventSource> {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const filter = parseSwapFilter(reader, network, args);
  const afterBlock = args.afterBlock ?? undefined;
  if (afterBlock !== undefined && afterBlock < 0n)
    throw new BadRequestError("afterBlock must not be negative.");
  // Live trades at or below this were already with the client (it asked for what follows
  // afterBlock); a reorg that withdraws everything above an ancestor lowers it.
  let known = afterBlock ?? -1n;
  let start: TradePosition | undefined;
  return watchMarket(reader, network, {
    subscribed() {
      if (afterBlock !== undefined) start = reader.feedPosition(network);
    },
    async initial() {
      if (start === undefined || afterBlock === undefined || afterBlock >= start.blockNumber)
        return undefined;
      const events: SwapFeedEventSource[] = [];
      let after = endOfBlock(afterBlock);
      let count = 0;
      for (;;) {
        const page = await reader.listTrades(network, {
          fromTimestamp: 0,
          after,
          maxBlock: start.blockNumber,
          ...(filter.token === undefined ? {} : { token: filter.token }),
          ...(filter.sender === undefined ? {} : { sender: filter.sender }),
          limit: REPLAY_PAGE,
        });
        const swaps = page.filter((trade) => comparePositions(trade, start!) <= 0);
        count += swaps.length;
        if (count > MAX_REPLAYED_SWAPS) {
          throw new BadRequestError(
            `More than ${MAX_REPLAYED_SWAPS} swaps follow afterBlock ${afterBlock}: read them with Query.swaps, then subscribe with a later afterBlock.`,
          );
        }
        if (swaps.length > 0) events.push({ type: "ADDED", network, blockNumber: start.blockNumber, swaps });
        if (page.length < REPLAY_PAGE || swaps.length < page.length) break;
        const last = page[page.length - 1]!;
        after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
      }
      return events;
    },
    map(event) {
      if (event.type !== "added" && event.type !== "removed") return undefined;
      // A reorg is told even when none of this subscriber's swaps went: its blocks did.
      if (event.type === "removed") {
        if (event.ancestor < known) known = event.ancestor;
        const swaps = event.trades.filter((trade) => matches(trade, filter));
        return { type: "REMOVED", network, blockNumber: event.ancestor, swaps };
      }
      const swaps = event.trades.filter((trade) => trade.blockNumber > known && matches(trade, filter));
      return swaps.length === 0 ? undefined : { type: "ADDED", network, blockNumber: event.block, swaps };
    },
  });
}
