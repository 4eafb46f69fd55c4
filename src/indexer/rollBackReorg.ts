import { DeepReorgError } from "../errors.js";
import { countEvent } from "../lib/countEvent.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { loadIndexerState } from "./loadIndexerState.js";
import { readHeader } from "./readRange.js";

/** Walks back the stored blocks to the newest one still canonical; halts on a reorg deeper than the window. */
export async function rollBackReorg(ctx: IndexerContext, head: bigint): Promise<void> {
  const { network, store, config } = ctx;
  countEvent("reorgs", { network });
  const stored = await store.listBlocks(network);
  for (let i = stored.length - 1; i >= 0; i--) {
    const block = stored[i]!;
    // Blocks above the new head are gone with the old branch.
    if (block.number > head) continue;
    const canonical = await readHeader(ctx.client, block.number);
    if (canonical.hash !== block.hash) continue;
    const depth = ctx.checkpoint!.blockNumber - block.number;
    if (depth > BigInt(config.finalityDepth)) break;
    ctx.log.warn(
      { network, from: ctx.checkpoint!.blockNumber, to: block.number, depth, head },
      "reorg: rolling back",
    );
    await store.rollback(network, { blockNumber: block.number, blockHash: block.hash });
    await loadIndexerState(ctx);
    return;
  }
  throw new DeepReorgError(
    `Reorg on ${network} deeper than the unfinalized window of ${config.finalityDepth} blocks: no stored block at or below ${ctx.checkpoint!.blockNumber} is canonical. The indexer stopped instead of serving wrong data.`,
  );
}
