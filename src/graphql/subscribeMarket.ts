import { Repeater } from "@repeaterjs/repeater";
import type { MarketEvent, MarketReader, NetworkStatus } from "../domain/market.js";
import type { Address, NetworkName, TokenRef, Trade } from "../domain/types.js";
import { NotReadyError, SlowSubscriberError } from "../errors.js";
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
 * in order) returns the value to send or undefined; `initial` runs first, `tick` every
 * `tickMs`. The stream ends when the server stops publishing, when `map` throws (with that
 * error) or when the subscriber falls MAX_PENDING_EVENTS behind; the client going away
 * unsubscribes.
 */
function watchMarket<T>(
  reader: MarketReader,
  network: NetworkName,
  handlers: {
    map: (event: MarketEvent) => T | undefined | Promise<T | undefined>;
    initial?: () => T | undefined | Promise<T | undefined>;
    tick?: { ms: number; value: () => T | undefined | Promise<T | undefined> };
  },
): AsyncIterableIterator<T> {
  return new Repeater<T>(async (push, stop) => {
    let pending = 0;
    let order: Promise<void> = Promise.resolve();
    const deliver = (value: T | undefined): void => {
      if (value === undefined) return;
      pending++;
      if (pending > MAX_PENDING_EVENTS) {
        stop(new SlowSubscriberError(MAX_PENDING_EVENTS));
        return;
      }
      push(value).then(
        () => pending--,
        () => undefined,
      );
    };
    const run = (step: () => T | undefined | Promise<T | undefined>): void => {
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

/**
 * Subscription.swaps: the trades of each newly applied block that match the filters, and the
 * matching trades a reorg withdrew. Filters are checked before anything is sent (400).
 */
export function subscribeSwaps(
  reader: MarketReader,
  args: { network: NetworkName; token?: string | null; trader?: string | null },
): AsyncIterableIterator<SwapFeedEventSource> {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const filter = parseSwapFilter(reader, network, args);
  return watchMarket(reader, network, {
    map(event) {
      if (event.type !== "added" && event.type !== "removed") return undefined;
      const swaps = event.trades.filter((trade) => matches(trade, filter));
      // A reorg is told even when none of this subscriber's swaps went: its blocks did.
      if (event.type === "removed") {
        return { type: "REMOVED", network, blockNumber: event.ancestor, swaps };
      }
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
