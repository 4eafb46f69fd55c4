import { endOfBlock, type MarketEvent, type TradePosition } from "../domain/market.js";
import type { Checkpoint, NetworkName } from "../domain/types.js";
import { catchUpFeed } from "./catchUpFeed.js";
import { createNetworkFeed, type NetworkFeed } from "./createNetworkFeed.js";
import { reconcileFeed } from "./reconcileFeed.js";
import type { FeedRules } from "./types.js";

/** Publishes what a process's views apply: the writer's commits or a replica's followed checkpoints. */
export interface TradeFeed {
  subscribe(network: NetworkName, listener: (event: MarketEvent) => void): () => void;
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

/**
 * Creates the feed. Each network has one worker that catches up with the views' newest
 * checkpoint (catchUpFeed, or reconcileFeed after a reload): one keyset read of the store per
 * batch, whatever the number of listeners, and no read at all while nobody listens. Commits
 * that arrive while it reads are coalesced.
 */
export function createTradeFeed(rules: FeedRules): TradeFeed {
  const feeds = new Map<NetworkName, NetworkFeed>();
  let closed = false;

  function feedOf(network: NetworkName): NetworkFeed {
    let feed = feeds.get(network);
    if (feed === undefined) {
      feed = createNetworkFeed();
      feeds.set(network, feed);
    }
    return feed;
  }

  async function run(network: NetworkName, feed: NetworkFeed): Promise<void> {
    feed.running = true;
    try {
      while (!closed) {
        const target = feed.target;
        if (target === undefined) break;
        if (feed.reload) {
          feed.reload = false;
          await reconcileFeed(rules, network, feed, target);
        } else if (feed.sent === undefined || target.blockNumber > feed.sent.blockNumber) {
          if (!(await catchUpFeed(rules, network, feed, target))) break;
        } else break;
      }
    } catch (error) {
      // A failed read (store unavailable): nothing was marked sent past what was emitted, so the
      // next commit retries from there.
      rules.onError?.(network, error);
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
        feed.forget(undefined);
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
        feed.emit({ type: "closed", network });
        feed.listeners.clear();
      }
    },
  };
}
