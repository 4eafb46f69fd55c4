import { readV3PoolState } from "../chain/readV3PoolState.js";
import type { Address } from "../domain/types.js";
import type { V3State } from "../pricing/types.js";
import { createTickTable } from "../pricing/v3/createTickTable.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { eventPool, type RangeEvent } from "./rangeEvents.js";

/**
 * The state just before a range of the V3 pools whose events it holds but whose state the
 * indexer does not have: pools created before the indexed window (their ticks were set by
 * Mints long ago), read from the chain at `before` (slot0, liquidity, every initialized tick).
 * A pool whose first event in the range is its Initialize is created in the range: nothing to
 * read. Reads at a past block need a node that keeps that block's state.
 */
export async function snapshotV3Pools(
  ctx: IndexerContext,
  events: readonly RangeEvent[],
  before: bigint,
): Promise<Map<Address, V3State>> {
  const live = ctx.views.getPoolIndex(ctx.network);
  const wanted = new Set<Address>();
  const seen = new Set<Address>();
  for (const event of events) {
    const pool = eventPool(event);
    if (pool === undefined || seen.has(pool)) continue;
    seen.add(pool);
    if (ctx.pairs.get(pool)?.v3 === undefined || live.get(pool)?.v3State !== undefined) continue;
    if (event.kind !== "v3init") wanted.add(pool);
  }
  const snapshots = new Map<Address, V3State>();
  await Promise.all(
    [...wanted].map(async (pool) => {
      const read = await readV3PoolState(ctx.client, pool, before);
      if (read === undefined) return;
      snapshots.set(pool, {
        sqrtPriceX96: read.sqrtPriceX96,
        tick: read.tick,
        liquidity: read.liquidity,
        ticks: createTickTable(read.ticks.map((t) => [t.tick, t] as const)),
      });
    }),
  );
  return snapshots;
}
