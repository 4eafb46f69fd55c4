import { endOfBlock, type MarketEvent, type TradePageQuery, type TradePosition } from "../domain/market.js";
import type { BlockRef, Checkpoint, NetworkName, Trade } from "../domain/types.js";

/** What the feed tells its listeners (see MarketEvent). */
export type FeedEvent = MarketEvent;

export type FeedListener = (event: FeedEvent) => void;

/** The store reads the feed needs: trade pages and the stored block hashes (reorg checks). */
export interface FeedSource {
  listTradePage(network: NetworkName, query: TradePageQuery): Promise<readonly Trade[]>;
  listBlocks(network: NetworkName, fromBlock?: bigint): Promise<BlockRef[]>;
}

/** Publishes what a process's views apply: the writer's commits or a replica's followed checkpoints. */
export interface TradeFeed {
  subscribe(network: NetworkName, listener: FeedListener): () => void;
  /** The views now reflect `checkpoint`, which extends the previous one. */
  advanced(network: NetworkName, checkpoint: Checkpoint): void;
  /** The views were reloaded from the store (start, or after a rollback) at `checkpoint`. */
  reloaded(network: NetworkName, checkpoint: Checkpoint | undefined): void;
  listenerCount(network?: NetworkName): number;
  /**
   * Where the feed stands: its listeners have been sent (or, had they listened, would have been
   * sent) every trade up to this position and will be sent every one after it; undefined until
   * the network's views are first loaded. Read it in the same synchronous step as subscribe: the
   * store's trades up to it, then the events, are then every trade once.
   */
  position(network: NetworkName): TradePosition | undefined;
  /** Ends every listener (shutdown); later subscribers are ended at once. */
  close(): void;
}

/** Trades per store read and per `added` event. */
export const FEED_PAGE = 1_000;
// Trades kept to name in a `removed` event: a reorg deeper than the finality depth halts the
// indexer, so only the last finalityDepth blocks' trades can be withdrawn (BSC: ~64 blocks of
// ~10 trades). The cap bounds memory if a network is configured with a huge depth.
const MAX_RECENT = 20_000;

interface NetworkFeed {
  listeners: Set<FeedListener>;
  /** The last checkpoint whose trades were sent (or skipped while nobody listened). */
  sent: Checkpoint | undefined;
  /** Checkpoints sent within the finality depth, oldest first: the candidates for a reorg's ancestor. */
  anchors: Checkpoint[];
  /** Trades sent within the finality depth, oldest first. */
  recent: Trade[];
  /** The last trade sent of a catch-up that failed halfway: the retry continues after it. */
  partial: TradePosition | undefined;
  /** The newest checkpoint the views reached, and whether they were reloaded since the last run. */
  target: Checkpoint | undefined;
  reload: boolean;
  running: boolean;
}

/**
 * Creates the feed. Each network has one worker that catches up with the views' newest
 * checkpoint: one keyset read of the store per batch, whatever the number of listeners, and no
 * read at all while nobody listens. Commits that arrive while it reads are coalesced.
 */
export function createTradeFeed(deps: {
  source: FeedSource;
  finalityDepth: (network: NetworkName) => number;
  /**
   * Whether the network follows its head (default: always). A backfill's commits are history,
   * not news: they are skipped, never read back for subscribers.
   */
  isLive?: (network: NetworkName) => boolean;
  onError?: (network: NetworkName, error: unknown) => void;
}): TradeFeed {
  const feeds = new Map<NetworkName, NetworkFeed>();
  let closed = false;

  function feedOf(network: NetworkName): NetworkFeed {
    let feed = feeds.get(network);
    if (feed === undefined) {
      feed = {
        listeners: new Set(),
        sent: undefined,
        anchors: [],
        recent: [],
        partial: undefined,
        target: undefined,
        reload: false,
        running: false,
      };
      feeds.set(network, feed);
    }
    return feed;
  }

  function emit(feed: NetworkFeed, event: FeedEvent): void {
    for (const listener of [...feed.listeners]) listener(event);
  }

  function forget(feed: NetworkFeed, checkpoint: Checkpoint | undefined): void {
    feed.sent = checkpoint;
    feed.anchors = checkpoint === undefined ? [] : [checkpoint];
    feed.recent = [];
    feed.partial = undefined;
  }

  /** Keeps the anchors and trades that a reorg within the finality depth could still withdraw. */
  function trim(network: NetworkName, feed: NetworkFeed): void {
    if (feed.sent === undefined) return;
    const floor = feed.sent.blockNumber - BigInt(deps.finalityDepth(network));
    const anchors = feed.anchors.filter((anchor) => anchor.blockNumber >= floor);
    // At least one anchor below the window, so the ancestor is found rather than guessed.
    const below = feed.anchors.filter((anchor) => anchor.blockNumber < floor).at(-1);
    feed.anchors = below === undefined ? anchors : [below, ...anchors];
    const from = feed.recent.findIndex((trade) => trade.blockNumber > floor);
    feed.recent = from < 0 ? [] : feed.recent.slice(from);
    if (feed.recent.length > MAX_RECENT) feed.recent = feed.recent.slice(-MAX_RECENT);
  }

  /**
   * Sends the trades above the sent checkpoint up to `target`, a page at a time, and remembers
   * the hashes of the stored blocks they came from (read first: if the store moves to another
   * branch between the two reads, the trades are checked against the older hashes and withdrawn,
   * never kept wrongly). False when the store no longer holds `target` (a reload is coming).
   */
  async function catchUp(network: NetworkName, feed: NetworkFeed, target: Checkpoint): Promise<boolean> {
    const sent = feed.sent;
    if (sent !== undefined && sent.blockNumber >= target.blockNumber) return true;
    if (feed.listeners.size === 0 || sent === undefined || deps.isLive?.(network) === false) {
      forget(feed, target);
      return true;
    }
    const blocks = (await deps.source.listBlocks(network, sent.blockNumber + 1n)).filter(
      (block) => block.number <= target.blockNumber,
    );
    if (blocks.at(-1)?.hash !== target.blockHash) return false;
    let after = feed.partial ?? endOfBlock(sent.blockNumber);
    for (;;) {
      const page = await deps.source.listTradePage(network, {
        fromTimestamp: 0,
        after,
        maxBlock: target.blockNumber,
        limit: FEED_PAGE,
      });
      if (page.length > 0) {
        feed.recent.push(...page);
        emit(feed, { type: "added", network, block: target.blockNumber, trades: page });
        const last = page[page.length - 1]!;
        after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
        feed.partial = after;
      }
      if (page.length < FEED_PAGE) break;
    }
    feed.sent = target;
    feed.partial = undefined;
    for (const block of blocks) feed.anchors.push({ blockNumber: block.number, blockHash: block.hash });
    trim(network, feed);
    emit(feed, { type: "indexed", network, block: target.blockNumber });
    return true;
  }

  /**
   * After a reload: the newest sent checkpoint (or the reloaded one, if it is not above what was
   * sent) whose block the store still holds with the same hash is where the chain forked.
   */
  async function reconcile(network: NetworkName, feed: NetworkFeed, target: Checkpoint): Promise<void> {
    const sent = feed.sent;
    if (sent === undefined || feed.listeners.size === 0) {
      forget(feed, target);
      return;
    }
    const candidates = [...feed.anchors, target].filter((c) => c.blockNumber <= sent.blockNumber);
    const lowest = candidates.reduce(
      (min, c) => (c.blockNumber < min ? c.blockNumber : min),
      sent.blockNumber,
    );
    const stored = new Map(
      (await deps.source.listBlocks(network, lowest)).map((block) => [block.number, block.hash]),
    );
    let ancestor: Checkpoint | undefined;
    for (const candidate of candidates) {
      if (stored.get(candidate.blockNumber) !== candidate.blockHash) continue;
      if (ancestor === undefined || candidate.blockNumber > ancestor.blockNumber) ancestor = candidate;
    }
    // Nothing sent is known to be canonical: withdraw all that can be named.
    const base = ancestor ?? { blockNumber: lowest - 1n, blockHash: "0x" as const };
    // A catch-up that failed halfway sent trades above `sent`: they are checked like the rest.
    const highest =
      feed.partial !== undefined && feed.partial.blockNumber > sent.blockNumber
        ? feed.partial.blockNumber
        : sent.blockNumber;
    if (base.blockNumber < highest) {
      const gone = feed.recent.filter((trade) => trade.blockNumber > base.blockNumber);
      feed.recent = feed.recent.filter((trade) => trade.blockNumber <= base.blockNumber);
      feed.anchors = feed.anchors.filter((anchor) => anchor.blockNumber <= base.blockNumber);
      feed.sent = base;
      feed.partial = undefined;
      emit(feed, { type: "removed", network, ancestor: base.blockNumber, trades: gone });
    }
    if (target.blockNumber > base.blockNumber) await catchUp(network, feed, target);
    else emit(feed, { type: "indexed", network, block: target.blockNumber });
  }

  async function run(network: NetworkName, feed: NetworkFeed): Promise<void> {
    feed.running = true;
    try {
      while (!closed) {
        const target = feed.target;
        if (target === undefined) break;
        if (feed.reload) {
          feed.reload = false;
          await reconcile(network, feed, target);
        } else if (feed.sent === undefined || target.blockNumber > feed.sent.blockNumber) {
          if (!(await catchUp(network, feed, target))) break;
        } else break;
      }
    } catch (error) {
      // A failed read (store unavailable): nothing was marked sent past what was emitted, so the
      // next commit retries from there.
      deps.onError?.(network, error);
    } finally {
      feed.running = false;
    }
  }

  function wake(network: NetworkName, feed: NetworkFeed): void {
    if (!feed.running) void run(network, feed);
  }

  return {
    subscribe(network, listener) {
      const feed = feedOf(network);
      if (closed) {
        listener({ type: "closed", network });
        return () => undefined;
      }
      feed.listeners.add(listener);
      return () => {
        feed.listeners.delete(listener);
      };
    },
    advanced(network, checkpoint) {
      const feed = feedOf(network);
      feed.target = checkpoint;
      wake(network, feed);
    },
    reloaded(network, checkpoint) {
      const feed = feedOf(network);
      if (checkpoint === undefined) {
        forget(feed, undefined);
        feed.target = undefined;
        return;
      }
      feed.target = checkpoint;
      feed.reload = true;
      wake(network, feed);
    },
    position(network) {
      const feed = feeds.get(network);
      if (feed?.sent === undefined) return undefined;
      return feed.partial ?? endOfBlock(feed.sent.blockNumber);
    },
    listenerCount(network) {
      let count = 0;
      for (const [name, feed] of feeds)
        if (network === undefined || name === network) count += feed.listeners.size;
      return count;
    },
    close() {
      closed = true;
      for (const [network, feed] of feeds) {
        emit(feed, { type: "closed", network });
        feed.listeners.clear();
      }
    },
  };
}
