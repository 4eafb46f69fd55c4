import type { Checkpoint, NetworkName } from "../domain/types.js";
import { catchUpFeed } from "./catchUpFeed.js";
import type { NetworkFeed } from "./createNetworkFeed.js";
import type { FeedRules } from "./types.js";

/**
 * After a reload: the newest sent checkpoint (or the reloaded one, if it is not above what was
 * sent) whose block the store still holds with the same hash is where the chain forked. The
 * trades sent above it are withdrawn (`removed`), then the feed catches up with `target`.
 */
export async function reconcileFeed(
  rules: FeedRules,
  network: NetworkName,
  feed: NetworkFeed,
  target: Checkpoint,
): Promise<void> {
  const sent = feed.sent;
  if (sent === undefined || feed.listeners.size === 0) {
    feed.forget(target);
    return;
  }
  const candidates = [...feed.anchors, target].filter((c) => c.blockNumber <= sent.blockNumber);
  const lowest = candidates.reduce((min, c) => (c.blockNumber < min ? c.blockNumber : min), sent.blockNumber);
  const stored = new Map(
    (await rules.source.listBlocks(network, lowest)).map((block) => [block.number, block.hash]),
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
    feed.emit({ type: "removed", network, ancestor: base.blockNumber, trades: gone });
  }
  if (target.blockNumber > base.blockNumber) await catchUpFeed(rules, network, feed, target);
  else feed.emit({ type: "indexed", network, block: target.blockNumber });
}
