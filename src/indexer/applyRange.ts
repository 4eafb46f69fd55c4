import type { Address, BlockRef, Pair } from "../domain/types.js";
import { assertNever } from "../lib/assertNever.js";
import { countEvent } from "../lib/countEvent.js";
import { createPoolOverlay } from "../pricing/createPoolOverlay.js";
import type { IndexerContext } from "./createIndexerContext.js";
import { decodeRange } from "./decodeRange.js";
import { eventPool } from "./rangeEvents.js";
import type { RangeRead } from "./readRange.js";
import { snapshotV3Pools } from "./snapshotV3Pools.js";
import { validateRange } from "./validateRange.js";

/** What applying one read range came to; the loop switches on it exhaustively. */
export type RangeOutcome =
  /** Committed: the checkpoint moved to `to`. */
  | { type: "range"; to: bigint; trades: number }
  /** The range does not link to the checkpoint: the stored chain was replaced. */
  | { type: "reorg" }
  /** The chain changed while the range was read, or pools were added meanwhile: read it again. */
  | { type: "retry"; reason: string };

/** Steps 2-5 of one range: validate, decode (against an overlay), commit, apply to the views. */
export async function applyRange(
  ctx: IndexerContext,
  read: RangeRead,
  epoch: number,
  head: bigint,
): Promise<RangeOutcome> {
  const { network, views, pairs, committedPairs } = ctx;
  const cp = ctx.checkpoint!;
  if (epoch !== ctx.pairsEpoch) return { type: "retry", reason: "pools were added while the range was read" };
  const validity = validateRange(read, cp);
  switch (validity.kind) {
    case "reorg":
      return { type: "reorg" };
    case "moved":
      return { type: "retry", reason: validity.reason };
    case "ok":
      break;
    default:
      return assertNever(validity);
  }
  const live = views.getPoolIndex(network);
  // V3 pools first met here that existed before: read now, against the state the previous
  // range left (a read while ranges are read ahead would also read pools those ranges create).
  const v3Snapshots = ctx.events.hasV3 ? await snapshotV3Pools(ctx, read.events, read.from - 1n) : undefined;
  const overlay = createPoolOverlay(live);
  const decoded = decodeRange(read, {
    ...(v3Snapshots === undefined ? {} : { v3Snapshots }),
    network,
    pairs,
    pools: overlay,
    pricing: ctx.pricing,
    wrappedNative: ctx.wrapped,
  });
  const newPairs = new Map<Address, Pair>();
  for (const event of read.events) {
    const pool = eventPool(event);
    if (pool !== undefined && !committedPairs.has(pool)) newPairs.set(pool, pairs.get(pool)!);
  }
  // Blocks within reach of a reorg keep their hash links; the last one anchors the checkpoint.
  const unfinalizedFrom = head - BigInt(ctx.config.finalityDepth);
  const last = read.headers.get(read.to)!;
  const blocks: BlockRef[] = [...read.headers.values()].filter(
    (block) => block.number >= unfinalizedFrom || block.number === read.to,
  );
  const next = { blockNumber: read.to, blockHash: last.hash };
  await ctx.store.commitRange(network, {
    checkpoint: next,
    blocks,
    pairs: [...newPairs.values()],
    reserves: decoded.reserves,
    trades: decoded.trades,
    v3Prices: decoded.v3Prices,
    v3Ticks: decoded.v3Ticks,
    liquidityEvents: decoded.liquidityEvents,
    poolEvents: decoded.poolEvents,
  });
  // Only now does the live graph the API reads change.
  ctx.checkpoint = next;
  for (const address of newPairs.keys()) committedPairs.add(address);
  for (const pool of overlay.changes()) live.update(pool);
  views.markIndexed(network, next);
  countEvent("trades_indexed", { network }, decoded.trades.length);
  return { type: "range", to: read.to, trades: decoded.trades.length };
}
