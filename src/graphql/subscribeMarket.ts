import { Repeater } from "@repeaterjs/repeater";
import {
  comparePositions,
  endOfBlock,
  type MarketEvent,
  type MarketReader,
  type NetworkStatus,
  type TradePosition,
} from "../domain/market.js";
import type { Address, NetworkName, TokenRef, Trade } from "../domain/types.js";
import { BadRequestError, NotReadyError, SlowSubscriberError } from "../errors.js";
import { assertNetworkConfigured } from "./assertNetworkReady.js";
import { getQuote, type QuoteArgs, type QuoteResult } from "./getQuote.js";
import { parseSwapFilter } from "./listSwaps.js";

/** One event of Subscription.swaps, as SwapFeedEvent resolves it. */
export interface SwapFeedEventSource {
  type: "ADDED" | "REMOVED";
  network: NetworkName;
  blockNumber: bigint;
  swaps: readonly Trade[];
}

/** A status with the instant it describes: a long subscription judges data age per event, not per request. */
export type TimedNetworkStatus = NetworkStatus & { atMs: number };

/** Events a subscriber may fall behind by before it is ended: a stalled client never grows the server. */
export const MAX_PENDING_EVENTS = 256;
/** Subscription.networkStatus is re-sent at least this often, new blocks or not. */
export const STATUS_HEARTBEAT_MS = 5_000;

/**
 * Turns a network's market events into a subscription's values: `map` (run one event at a time,
 * in order) returns the value to send or undefined; `subscribed` runs in the same synchronous
 * step as the subscription to the events (to note where they start), `initial` runs first and
 * may send several values (events that come meanwhile wait for it), `tick` every `tickMs`. The stream ends when the server stops publishing, when `map` throws (with that
 * error) or when the subscriber falls MAX_PENDING_EVENTS behind; the client going away
 * unsubscribes.
 */
function watchMarket<T>(
  reader: MarketReader,
  network: NetworkName,
  handlers: {
    map: (event: MarketEvent) => T | undefined | Promise<T | undefined>;
    subscribed?: () => void;
    initial?: () => T | readonly T[] | undefined | Promise<T | readonly T[] | undefined>;
    tick?: { ms: number; value: () => T | undefined | Promise<T | undefined> };
  },
): AsyncIterableIterator<T> {
  return new Repeater<T>(async (push, stop) => {
    let pending = 0;
    let order: Promise<void> = Promise.resolve();
    const deliver = (value: T | readonly T[] | undefined): void => {
      if (value === undefined) return;
      if (Array.isArray(value)) {
        for (const item of value as readonly T[]) deliver(item);
        return;
      }
      pending++;
      if (pending > MAX_PENDING_EVENTS) {
        stop(new SlowSubscriberError(MAX_PENDING_EVENTS));
        return;
      }
      push(value as T).then(
        () => pending--,
        () => undefined,
      );
    };
    const run = (step: () => T | readonly T[] | undefined | Promise<T | readonly T[] | undefined>): void => {
      order = order.then(async () => deliver(await step())).catch((error: unknown) => stop(error));
    };
    const unsubscribe = reader.subscribe(network, (event) => {
      if (event.type === "closed") {
        // What was already mapped is still sent; then the stream completes.
        order = order.then(() => stop());
        return;
      }
      run(() => handlers.map(event));
    });
    handlers.subscribed?.();
    if (handlers.initial !== undefined) run(handlers.initial);
    const tick = handlers.tick;
    const timer = tick === undefined ? undefined : setInterval(() => run(tick.value), tick.ms);
    timer?.unref();
    await stop;
    unsubscribe();
    if (timer !== undefined) clearInterval(timer);
  });
}

function matches(trade: Trade, filter: { token?: TokenRef; sender?: Address }): boolean {
  if (filter.sender !== undefined && trade.sender !== filter.sender) return false;
  if (filter.token !== undefined && trade.tokenIn !== filter.token && trade.tokenOut !== filter.token)
    return false;
  return true;
}

/** Most swaps a subscription resumed with `afterBlock` is sent from the store before it goes live. */
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
  reader: MarketReader,
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

/** Subscription.networkStatus: at once, at each newly indexed block, and every STATUS_HEARTBEAT_MS. */
export function subscribeNetworkStatus(
  reader: MarketReader,
  args: { network: NetworkName },
): AsyncIterableIterator<TimedNetworkStatus> {
  assertNetworkConfigured(reader, args.network);
  const now = (): TimedNetworkStatus => ({ ...reader.status(args.network), atMs: Date.now() });
  return watchMarket(reader, args.network, {
    initial: now,
    map: (event) => (event.type === "indexed" ? now() : undefined),
    tick: { ms: STATUS_HEARTBEAT_MS, value: now },
  });
}

/**
 * Subscription.quote: Query.quote's answer at once, then again after each indexed block that
 * changes its amount, price or route. While the network does not serve, nothing is sent; any
 * other error (a bad token, no route) ends the stream with it.
 */
export function subscribeQuote(reader: MarketReader, args: QuoteArgs): AsyncIterableIterator<QuoteResult> {
  assertNetworkConfigured(reader, args.network);
  let last: string | undefined;
  let lastBlock: bigint | undefined;
  const next = async (): Promise<QuoteResult | undefined> => {
    const block = reader.poolsBlock(args.network);
    if (last !== undefined && block === lastBlock) return undefined;
    let quote: QuoteResult;
    try {
      quote = await getQuote(reader, args);
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
