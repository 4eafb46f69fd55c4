import type { TradePosition } from "../../domain/market.js";
import type { NetworkName } from "../../domain/types.js";
import { canAppendCandles } from "../buildCandles.js";
import { assertPoolEventNetworks } from "../poolEventCodec.js";
import { assertLiquidityEventNetworks, assertTradeNetworks } from "../rowCodec.js";
import type { RangeBatch } from "../types.js";
import { ask } from "./ask.js";
import { buildTradeChangePlan } from "./buildTradeChangePlan.js";
import type { WritePlan } from "./writeSteps.js";

/**
 * The steps of Store.commitRange, in order: the batch's trades replace every stored trade of their
 * transactions, the day aggregates and candles follow, then blocks, pairs, reserves, the V3
 * prices, ticks and liquidity events, and last the checkpoint. Throws before any step for a
 * trade or liquidity event filed under another network.
 */
export function* buildCommitPlan(network: NetworkName, batch: RangeBatch): WritePlan {
  assertTradeNetworks(network, batch.trades);
  assertLiquidityEventNetworks(network, batch.liquidityEvents ?? []);
  assertPoolEventNetworks(network, batch.poolEvents ?? []);
  const { trades } = batch;
  if (trades.length > 0) {
    // Delete then insert: a replaced trade gets a new seq, so replicas tailing by seq see it again,
    // and a re-committed transaction replaces all its trades (they may split differently). Every
    // one is deleted before any is inserted, so a trade listed twice in one batch fails on the
    // unique key instead of silently replacing itself. The deleted trades come back so their old
    // contribution leaves the day aggregates and candles. A transaction's trades share its block
    // and index, so when every trade of the batch lies in a transaction after the newest stored
    // trade's, none of theirs is stored: the delete (a DELETE per transaction hash, most of a
    // backfill's commit) is skipped and that position is the newest the commit keeps.
    const stored = yield* ask({ type: "readLastPosition" });
    const follows = stored === undefined || trades.every((t) => compareTransactions(t, stored) > 0);
    const removed = follows ? [] : yield* ask({ type: "deleteTradesOf", trades });
    const candles = removed.length > 0 || trades.some((t) => t.marks !== undefined);
    // After a delete, read again between it and the insert: the newest trade the commit keeps.
    const last = follows ? stored : candles ? yield* ask({ type: "readLastPosition" }) : undefined;
    yield { type: "insertTrades", trades };
    yield* buildTradeChangePlan(
      trades,
      removed,
      !candles ? "none" : canAppendCandles(last, trades, removed) ? "append" : "rebuild",
    );
  }
  if (batch.blocks.length > 0) yield { type: "upsertBlocks", blocks: batch.blocks };
  if (batch.pairs.length > 0) yield { type: "upsertPairs", pairs: batch.pairs };
  if (batch.reserves.length > 0) yield { type: "upsertReserves", reserves: batch.reserves };
  yield* buildV3CommitSteps(batch);
  yield* buildPoolEventSteps(batch);
  yield { type: "setCheckpoint", checkpoint: batch.checkpoint };
}

/**
 * The V3 part of a commit: prices and ticks upsert like reserves; liquidity events replace those
 * of every block the batch covers (its listed blocks and its events' blocks), so a re-committed
 * block keeps exactly the batch's events. A batch without `liquidityEvents` leaves them alone.
 */
function* buildV3CommitSteps(batch: RangeBatch): WritePlan {
  const { v3Prices, v3Ticks, liquidityEvents } = batch;
  if (v3Prices !== undefined && v3Prices.length > 0) yield { type: "upsertV3Prices", prices: v3Prices };
  if (v3Ticks !== undefined && v3Ticks.length > 0) yield { type: "upsertV3Ticks", ticks: v3Ticks };
  if (liquidityEvents === undefined) return;
  const covered = new Set<bigint>(batch.blocks.map((block) => block.number));
  for (const event of liquidityEvents) covered.add(event.blockNumber);
  if (covered.size === 0) return;
  const blocks = [...covered].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  yield { type: "replaceLiquidityEvents", blocks, events: liquidityEvents };
}

/**
 * Pool events replace those of every block the batch covers (its listed blocks and its events'
 * blocks), as liquidity events do. A batch without `poolEvents` leaves them alone.
 */
function* buildPoolEventSteps(batch: RangeBatch): WritePlan {
  const { poolEvents } = batch;
  if (poolEvents === undefined) return;
  const covered = new Set<bigint>(batch.blocks.map((block) => block.number));
  for (const event of poolEvents) covered.add(event.blockNumber);
  if (covered.size === 0) return;
  const blocks = [...covered].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  yield { type: "replacePoolEvents", blocks, events: poolEvents };
}

/** Orders positions by transaction only (block, then index in it). */
function compareTransactions(a: TradePosition, b: TradePosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.txIndex - b.txIndex;
}
