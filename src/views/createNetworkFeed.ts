import type { MarketEvent, TradePosition } from "../domain/market.js";
import type { Checkpoint, Trade } from "../domain/types.js";

/** One network's part of the trade feed: its listeners and what was sent to them. */
export interface NetworkFeed {
  listeners: Set<(event: MarketEvent) => void>;
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
  /** Tells every listener (a copy of the set: a listener may unsubscribe while told). */
  emit(event: MarketEvent): void;
  /** Sends nothing up to `checkpoint` and forgets what was sent (nobody listened, or a reload). */
  forget(checkpoint: Checkpoint | undefined): void;
}

/** Creates a network's feed that has sent nothing and has no listener. */
export function createNetworkFeed(): NetworkFeed {
  const feed: NetworkFeed = {
    listeners: new Set(),
    sent: undefined,
    anchors: [],
    recent: [],
    partial: undefined,
    target: undefined,
    reload: false,
    running: false,
    emit(event) {
      for (const listener of [...feed.listeners]) listener(event);
    },
    forget(checkpoint) {
      feed.sent = checkpoint;
      feed.anchors = checkpoint === undefined ? [] : [checkpoint];
      feed.recent = [];
      feed.partial = undefined;
    },
  };
  return feed;
}
