import type { TradePosition } from "../../domain/market.js";
import type {
  BlockRef,
  Checkpoint,
  LiquidityEvent,
  Pair,
  PairReserves,
  PoolEvent,
  Trade,
  V3PoolPrice,
  V3TickLiquidity,
} from "../../domain/types.js";
import type { CandleParent, CandleRow } from "../buildCandles.js";
import type { DayDelta, TraderDelta } from "../buildDayDeltas.js";

/** The identity of a candle row: its series and bucket. */
export type CandleId = Pick<CandleRow, "kind" | "subject" | "interval" | "start">;

/**
 * One step of a write (commit, rollback, prune): a change or a read of one concern's tables. The
 * plans decide which steps run and in what order; each engine only turns a step into its SQL,
 * inside the write's transaction, and answers the steps that read (see WriteAnswers).
 */
export type WriteStep =
  // Trades.
  /** Deletes every stored trade of these trades' transactions; answers the deleted trades. */
  | { type: "deleteTradesOf"; trades: readonly Trade[] }
  /** Deletes the trades above a block; answers the deleted trades. */
  | { type: "deleteTradesAbove"; blockNumber: bigint }
  | { type: "deleteTradesBefore"; timestamp: number }
  /** Answers the newest stored trade's position (undefined when the network has none). */
  | { type: "readLastPosition" }
  | { type: "insertTrades"; trades: readonly Trade[] }
  /** Answers the stored trades (with their marks) whose timestamp is in [from, to). */
  | { type: "readTradesBetween"; from: number; to: number }
  // Day volumes.
  /** Adds to the senders' day counts, drops those that reach 0; answers each day's distinct-sender change. */
  | { type: "addDayTraders"; traders: readonly TraderDelta[] }
  /** Adds to the day aggregates (traderCount included), drops the days left with no trade. */
  | { type: "addDayTotals"; days: readonly DayDelta[] }
  /** Deletes the day aggregates and day senders of the days before this one. */
  | { type: "deleteDaysBefore"; day: number }
  // Candles.
  /** Merges each row into its stored bucket as the bucket's later part (or inserts it). */
  | { type: "mergeCandles"; rows: readonly CandleRow[] }
  /** Answers the stored rows of each parent's finer interval inside the parent's bucket. */
  | { type: "readFinerCandles"; parents: readonly CandleParent[] }
  /** Writes these rows over the stored ones and deletes the `remove` buckets (disjoint keys). */
  | { type: "replaceCandles"; rows: readonly CandleRow[]; remove: readonly CandleId[] }
  /** Deletes the candles of every interval whose bucket starts on a day before this one. */
  | { type: "deleteCandlesBefore"; day: number }
  // Blocks and the checkpoint.
  | { type: "upsertBlocks"; blocks: readonly BlockRef[] }
  | { type: "deleteBlocksAbove"; blockNumber: bigint }
  | { type: "deleteBlocksBelow"; blockNumber: bigint }
  | { type: "setCheckpoint"; checkpoint: Checkpoint }
  // Pools.
  | { type: "upsertPairs"; pairs: readonly Pair[] }
  | { type: "upsertReserves"; reserves: readonly PairReserves[] }
  | { type: "deleteReservesAbove"; blockNumber: bigint }
  /** Deletes the reserves rows below a block that a newer row of their pair replaces. */
  | { type: "pruneReservesBelow"; blockNumber: bigint }
  // V3 pools: prices and tick liquidity, one row per (pool[, tick], block) read as "newest at or below".
  /** Writes each (pool, block) row over the stored one (a re-commit rewrites the same rows). */
  | { type: "upsertV3Prices"; prices: readonly V3PoolPrice[] }
  /** Writes each (pool, tick, block) row over the stored one. */
  | { type: "upsertV3Ticks"; ticks: readonly V3TickLiquidity[] }
  | { type: "deleteV3PricesAbove"; blockNumber: bigint }
  | { type: "deleteV3TicksAbove"; blockNumber: bigint }
  /**
   * Deletes the price rows below a block that a newer row of their pool at or below that block
   * replaces: the state at every block from there on reads the same.
   */
  | { type: "pruneV3PricesBelow"; blockNumber: bigint }
  /**
   * Deletes the tick rows below a block that a newer row of their tick at or below that block
   * replaces, and every row below it with gross 0 (a tick that left reads the same as no row).
   */
  | { type: "pruneV3TicksBelow"; blockNumber: bigint }
  // Liquidity events.
  /**
   * Deletes every stored event of these blocks, then inserts `events` (whose blocks are among
   * them); an event listed twice fails on the key instead of silently replacing itself.
   */
  | { type: "replaceLiquidityEvents"; blocks: readonly bigint[]; events: readonly LiquidityEvent[] }
  | { type: "deleteLiquidityEventsAbove"; blockNumber: bigint }
  | { type: "deleteLiquidityEventsBefore"; timestamp: number }
  // Pool events (swaps, joins, exits with the reserves after each).
  /** Deletes every stored pool event of these blocks, then inserts `events` (whose blocks are among them). */
  | { type: "replacePoolEvents"; blocks: readonly bigint[]; events: readonly PoolEvent[] }
  | { type: "deletePoolEventsAbove"; blockNumber: bigint }
  | { type: "deletePoolEventsBefore"; timestamp: number };

/** The steps on the trades tables (trades and their trade_pools index rows). */
export type TradeStepType =
  | "deleteTradesOf"
  | "deleteTradesAbove"
  | "deleteTradesBefore"
  | "readLastPosition"
  | "insertTrades"
  | "readTradesBetween";

/** What an engine answers to the steps that read; every other step answers nothing. */
export interface WriteAnswers {
  deleteTradesOf: readonly Trade[];
  deleteTradesAbove: readonly Trade[];
  readLastPosition: TradePosition | undefined;
  readTradesBetween: readonly Trade[];
  /** [day, change of its distinct senders] for the days whose count changed (0 changes may be left out). */
  addDayTraders: Iterable<readonly [number, number]>;
  readFinerCandles: readonly CandleRow[];
}

export type WriteStepType = WriteStep["type"];
/** The step of a type. */
export type WriteStepOf<T extends WriteStepType> = Extract<WriteStep, { type: T }>;
type WriteAnswerOf<T extends WriteStepType> = T extends keyof WriteAnswers ? WriteAnswers[T] : undefined;

/** A write's steps in order; each read step is resumed with the engine's answer. */
export type WritePlan = Generator<WriteStep, void, unknown>;

/** One engine's SQL for every step, given its write context (a connection, the network). */
export type WriteHandlers<Context> = {
  [T in WriteStepType]: (context: Context, step: WriteStepOf<T>) => WriteAnswerOf<T>;
};

/** WriteHandlers for an engine whose statements are awaited. */
export type AsyncWriteHandlers<Context> = {
  [T in WriteStepType]: (context: Context, step: WriteStepOf<T>) => Promise<WriteAnswerOf<T>>;
};
