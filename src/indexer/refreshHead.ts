import { getRpcTimings } from "../chain/getRpcTimings.js";
import { readRpcPace } from "../chain/readRpcPace.js";
import { readsWholeBlock } from "../chain/readsWholeBlock.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { readLatestBlock } from "./readRange.js";

// Head blocks kept for the range read at most (a poll adds one; the commit drops those it passed).
const HEAD_BLOCKS_KEPT = 8;

// Weight of the newest poll in the running share of polls that found a new block.
const ADVANCE_WEIGHT = 0.2;

/**
 * Asks the chain for its head; the answer's time is the network's freshness. Following the head,
 * where each new block's header is read anyway (hash links) and its transactions whenever it
 * holds a trade that the cost model reads whole, the poll is the newest block with its
 * transactions (one call instead of eth_blockNumber and then the block): a block a poll, two
 * calls with its logs. Only while most polls find a new block (BSC's 0.75 s blocks polled about
 * as often), and not right after a poll that found none: a chain slower than the poll interval
 * (Ethereum's 12 s) is polled by number and does not pay a whole block for nothing.
 */
export async function refreshHead(ctx: IndexerContext): Promise<bigint> {
  const { network, views } = ctx;
  const head = await pollHead(ctx);
  const checkpoint = ctx.checkpoint;
  const checkedAt = Date.now();
  const status = views.status(network);
  const synced = checkpoint !== undefined && checkpoint.blockNumber >= head;
  const syncedAt = synced ? checkedAt : status.syncedAt;
  views.setStatus(network, {
    headBlock: head,
    headCheckedAt: checkedAt,
    syncedAt,
    indexedBlock: checkpoint?.blockNumber,
    error: undefined,
    rpcRateLimit: readRpcPace(network),
  });
  await ctx.store.saveHead(network, { headBlock: head, checkedAt, syncedAt });
  return head;
}

/**
 * After a catch-up: the indexed data reaches the head as it was read, so the data is as fresh as
 * that read. Without this, a chain that grows between every two polls (BSC's 0.75 s blocks) would
 * never look synced, and X-Data-Age and the staleness check would have no time to go by.
 */
export async function markSynced(ctx: IndexerContext): Promise<void> {
  const { network, views } = ctx;
  const status = views.status(network);
  const { headBlock, headCheckedAt } = status;
  if (headBlock === undefined || headCheckedAt === undefined) return;
  if (ctx.checkpoint === undefined || ctx.checkpoint.blockNumber < headBlock) return;
  if (status.syncedAt !== undefined && status.syncedAt >= headCheckedAt) return;
  views.setStatus(network, { syncedAt: headCheckedAt });
  await ctx.store.saveHead(network, { headBlock, checkedAt: headCheckedAt, syncedAt: headCheckedAt });
}

/** The head's number, read with the head's block when that saves the block's own read (see refreshHead). */
async function pollHead(ctx: IndexerContext): Promise<bigint> {
  const { checkpoint, headBlocks, polled } = ctx;
  for (const number of headBlocks.keys()) {
    if (checkpoint === undefined || number <= checkpoint.blockNumber) headBlocks.delete(number);
  }
  if (ctx.senderCosts.model === "time") ctx.senderCosts.time = getRpcTimings(ctx.client)?.sample();
  const whole =
    polled.advanced &&
    polled.advanceRate >= 0.5 &&
    checkpoint !== undefined &&
    ctx.views.status(ctx.network).ready === true &&
    readsWholeBlock(1, true, ctx.senderCosts);
  let head: bigint;
  if (whole) {
    const block = await readLatestBlock(ctx.headClient);
    head = block.ref.number;
    if (head > checkpoint.blockNumber) {
      headBlocks.set(head, block);
      if (headBlocks.size > HEAD_BLOCKS_KEPT) headBlocks.delete(headBlocks.keys().next().value as bigint);
    } else if (head < checkpoint.blockNumber) {
      // A head below the checkpoint reads as a reorg: a balancer's lagging node must not make
      // one. The head is asked as the number poll would ask it.
      head = await ctx.headClient.getBlockNumber({ cacheTime: 0 });
    }
  } else {
    head = await ctx.headClient.getBlockNumber({ cacheTime: 0 });
  }
  polled.advanced = polled.head === undefined || head > polled.head;
  polled.advanceRate = polled.advanceRate * (1 - ADVANCE_WEIGHT) + (polled.advanced ? ADVANCE_WEIGHT : 0);
  polled.head = head;
  return head;
}
