import type { IndexerContext } from "./createIndexerContext.js";
import { readHeader } from "./readRange.js";
import { rollBackReorg } from "./rollBackReorg.js";
import { windowStart } from "./windowStart.js";

/** Seconds between prunes of what left the window. */
const PRUNE_EVERY = 600;

/**
 * One turn at the head, the checkpoint at or above it: a head below the checkpoint, or (when
 * `checkTip`) a tip whose hash changed, is a reorg; else the network is at rest (restAtHead).
 */
export async function followHead(
  ctx: IndexerContext,
  head: bigint,
  lastPrune: { at: number },
  checkTip: boolean,
): Promise<void> {
  const cp = ctx.checkpoint!;
  // The chain may have been replaced under us without growing past our tip. A growing chain
  // shows it in the next block's parent hash; the tip is read only when the head stood still.
  const tip = checkTip && head === cp.blockNumber ? await readHeader(ctx.headClient, head) : undefined;
  if (head < cp.blockNumber || (tip !== undefined && tip.hash !== cp.blockHash)) {
    await ctx.exclusive(() => rollBackReorg(ctx, head));
    return;
  }
  await restAtHead(ctx, head, lastPrune);
}

/** Caught up with `head`: marks the network ready, prunes what left the window now and then, waits for the next poll. */
export async function restAtHead(
  ctx: IndexerContext,
  head: bigint,
  lastPrune: { at: number },
): Promise<void> {
  const { network, views, config } = ctx;
  if (!views.status(network).ready)
    ctx.log.info({ network, block: head }, "backfill done: following the head");
  views.setStatus(network, { ready: true, error: undefined });
  if (ctx.now() - lastPrune.at > PRUNE_EVERY) {
    const blocksBelow = head - BigInt(config.finalityDepth) * 2n;
    await ctx.store.prune(network, {
      tradesBefore: windowStart(ctx),
      blocksBelow: blocksBelow > 0n ? blocksBelow : 0n,
    });
    lastPrune.at = ctx.now();
  }
  await ctx.sleeper.sleep(config.pollIntervalMs);
}
