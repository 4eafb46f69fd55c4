import { endOfBlock } from "../domain/market.js";
import type { Checkpoint, NetworkName } from "../domain/types.js";
import type { NetworkFeed } from "./createNetworkFeed.js";
import type { FeedRules } from "./types.js";

/** Trades per store read and per `added` event. */
const FEED_PAGE = 1_000;
// Trades kept to name in a `removed` event: a reorg deeper than the finality depth halts the
// indexer, so only the last finalityDepth blocks' trades can be withdrawn (BSC: ~64 blocks of
// ~10 trades). The cap bounds memory if a network is configured with a huge depth.
const MAX_RECENT = 20_000;

/**
 * Sends the trades above the sent checkpoint up to `target`, a page at a time, and remembers
 * the hashes of the stored blocks they came from (read first: if the store moves to another
 * branch between the two reads, the trades are checked against the older hashes and withdrawn,
 * never kept wrongly). False when the store no longer holds `target` (a reload is coming).
 */
export async function catchUpFeed(
  rules: FeedRules,
  network: NetworkName,
  feed: NetworkFeed,
  target: Checkpoint,
): Promise<boolean> {
  const sent = feed.sent;
  if (sent !== undefined && sent.blockNumber >= target.blockNumber) return true;
  if (feed.listeners.size === 0 || sent === undefined || rules.isLive?.(network) === false) {
    feed.forget(target);
    return true;
  }
  const blocks = (await rules.source.listBlocks(network, sent.blockNumber + 1n)).filter(
    (block) => block.number <= target.blockNumber,
  );
  if (blocks.at(-1)?.hash !== target.blockHash) return false;
  let after = feed.partial ?? endOfBlock(sent.blockNumber);
  for (;;) {
    const page = await rules.source.listTradePage(network, {
      fromTimestamp: 0,
      after,
      maxBlock: target.blockNumber,
      limit: FEED_PAGE,
    });
    if (page.length > 0) {
      feed.recent.push(...page);
      feed.emit({ type: "added", network, block: target.blockNumber, trades: page });
      const last = page[page.length - 1]!;
      after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
      feed.partial = after;
    }
    if (page.length < FEED_PAGE) break;
  }
  feed.sent = target;
  feed.partial = undefined;
  for (const block of blocks) feed.anchors.push({ blockNumber: block.number, blockHash: block.hash });
  trim(feed, target.blockNumber - BigInt(rules.finalityDepth(network)));
  feed.emit({ type: "indexed", network, block: target.blockNumber });
  return true;
}

/** Keeps the anchors and trades that a reorg within the finality depth (above `floor`) could still withdraw. */
function trim(feed: NetworkFeed, floor: bigint): void {
  const anchors = feed.anchors.filter((anchor) => anchor.blockNumber >= floor);
  // At least one anchor below the window, so the ancestor is found rather than guessed.
  const below = feed.anchors.filter((anchor) => anchor.blockNumber < floor).at(-1);
  feed.anchors = below === undefined ? anchors : [below, ...anchors];
  const from = feed.recent.findIndex((trade) => trade.blockNumber > floor);
  feed.recent = from < 0 ? [] : feed.recent.slice(from);
  if (feed.recent.length > MAX_RECENT) feed.recent = feed.recent.slice(-MAX_RECENT);
}
