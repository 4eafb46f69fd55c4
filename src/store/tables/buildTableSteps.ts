import type { WriteStepOf, WriteStepType } from "../plan/writeSteps.js";
import {
  BLOCKS,
  LIQUIDITY_EVENTS,
  PAIRS,
  POOL_EVENTS,
  RESERVES,
  V3_PRICES,
  V3_TICKS,
} from "./describedTables.js";
import type { TableWriter } from "./types.js";

type TableStepType =
  | "replaceLiquidityEvents"
  | "deleteLiquidityEventsAbove"
  | "deleteLiquidityEventsBefore"
  | "replacePoolEvents"
  | "deletePoolEventsAbove"
  | "deletePoolEventsBefore"
  | "upsertPairs"
  | "upsertReserves"
  | "deleteReservesAbove"
  | "pruneReservesBelow"
  | "upsertV3Prices"
  | "upsertV3Ticks"
  | "deleteV3PricesAbove"
  | "deleteV3TicksAbove"
  | "pruneV3PricesBelow"
  | "pruneV3TicksBelow"
  | "upsertBlocks"
  | "deleteBlocksAbove"
  | "deleteBlocksBelow";

/** The write steps on described tables, as one engine's writer runs them. */
export type TableSteps<Context, Done> = {
  [T in TableStepType & WriteStepType]: (context: Context, step: WriteStepOf<T>) => Done;
};

/** The write steps of every described table (see describedTables.ts), for either engine's writer. */
export function buildTableSteps<Context, Done>(w: TableWriter<Context, Done>): TableSteps<Context, Done> {
  return {
    replaceLiquidityEvents: (c, { blocks, events }) => w.replaceBlocks(c, LIQUIDITY_EVENTS, blocks, events),
    deleteLiquidityEventsAbove: (c, { blockNumber }) => w.deleteAbove(c, LIQUIDITY_EVENTS, blockNumber),
    deleteLiquidityEventsBefore: (c, { timestamp }) => w.deleteBefore(c, LIQUIDITY_EVENTS, timestamp),
    replacePoolEvents: (c, { blocks, events }) => w.replaceBlocks(c, POOL_EVENTS, blocks, events),
    deletePoolEventsAbove: (c, { blockNumber }) => w.deleteAbove(c, POOL_EVENTS, blockNumber),
    deletePoolEventsBefore: (c, { timestamp }) => w.deleteBefore(c, POOL_EVENTS, timestamp),
    upsertPairs: (c, { pairs }) => w.insert(c, PAIRS, pairs),
    upsertReserves: (c, { reserves }) => w.insert(c, RESERVES, reserves),
    deleteReservesAbove: (c, { blockNumber }) => w.deleteAbove(c, RESERVES, blockNumber),
    pruneReservesBelow: (c, { blockNumber }) => w.pruneBelow(c, RESERVES, blockNumber),
    upsertV3Prices: (c, { prices }) => w.insert(c, V3_PRICES, prices),
    upsertV3Ticks: (c, { ticks }) => w.insert(c, V3_TICKS, ticks),
    deleteV3PricesAbove: (c, { blockNumber }) => w.deleteAbove(c, V3_PRICES, blockNumber),
    deleteV3TicksAbove: (c, { blockNumber }) => w.deleteAbove(c, V3_TICKS, blockNumber),
    pruneV3PricesBelow: (c, { blockNumber }) => w.pruneBelow(c, V3_PRICES, blockNumber),
    pruneV3TicksBelow: (c, { blockNumber }) => w.pruneBelow(c, V3_TICKS, blockNumber),
    upsertBlocks: (c, { blocks }) => w.insert(c, BLOCKS, blocks),
    deleteBlocksAbove: (c, { blockNumber }) => w.deleteAbove(c, BLOCKS, blockNumber),
    deleteBlocksBelow: (c, { blockNumber }) => w.deleteBefore(c, BLOCKS, blockNumber),
  };
}
