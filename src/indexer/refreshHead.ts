import type { IndexerContext } from "./createIndexerContext.js";

/** Asks the chain for its head; the answer's time is the network's freshness. */
export async function refreshHead(ctx: IndexerContext): Promise<bigint> {
  const { network, views } = ctx;
  const head = await ctx.client.getBlockNumber({ cacheTime: 0 });
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
