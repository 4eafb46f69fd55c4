import type { Address, NetworkName, TokenRef, Trade } from "./types.js";

/** Indexing status of one network. */
export interface NetworkStatus {
  network: NetworkName;
  /** True once the backfill reached the head; the API answers 503 for the network until then. */
  ready: boolean;
  indexedBlock: bigint | undefined;
  headBlock: bigint | undefined;
  /** Blocks between the indexed block and the head (0 when caught up). */
  lagBlocks: bigint | undefined;
  /** Unix ms of the last head the indexer (on a replica: the writer) got from RPC. */
  headCheckedAt: number | undefined;
  /** Unix ms when the indexed block last equalled that head: the data is at least this fresh. */
  syncedAt: number | undefined;
  /**
   * The head has not been refreshed for a few poll intervals (an RPC outage, or the writer is
   * gone): the API keeps serving the indexed data until it is older than the staleness limit.
   */
  degraded: boolean;
  /** The indexer stopped for good (a reorg deeper than the window): 503 until an operator acts. */
  halted: boolean;
  /** Why the network is halted or degraded (operator text; may name internals). */
  error: string | undefined;
  /**
   * Calls a second the RPC provider accepts while it rate-limits this network's indexer (the
   * learned pace, summed over the limited URLs); absent while no URL is limited. A state, not
   * an error: indexing goes on at that pace.
   */
  rpcRateLimit?: number | undefined;
}

/** A position in the (blockNumber, txIndex, logIndex) order of trades: the keyset of list pages. */
export interface TradePosition {
  blockNumber: bigint;
  txIndex: number;
  /** A transaction can hold several trades: the log index makes the order unique. */
  logIndex: number;
}

// txIndex/logIndex past any real one (int4 in PostgreSQL): "after everything in the block".
const END_OF_BLOCK = 2_147_483_647;

/** The position after every trade of `block`: a keyset page from it starts with the next block. */
export function endOfBlock(block: bigint): TradePosition {
  return { blockNumber: block, txIndex: END_OF_BLOCK, logIndex: END_OF_BLOCK };
}

/** Orders positions (trades included) by chain position: block, transaction, log. */
export function comparePositions(a: TradePosition, b: TradePosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  if (a.txIndex !== b.txIndex) return a.txIndex - b.txIndex;
  return a.logIndex - b.logIndex;
}

/** One keyset page of trades, read over an index; never the whole window at once. */
export interface TradePageQuery {
  /** Block timestamps at or after this (unix seconds). */
  fromTimestamp: number;
  /** Block timestamps before this (unix seconds); default: no end. */
  toTimestamp?: number;
  /** Only trades strictly after this position. */
  after?: TradePosition;
  /** Only trades at or below this block: pins a multi-page read to one indexed state. */
  maxBlock?: bigint;
  /** Only trades that sold or bought this token ("" is the native coin, not its wrapped token). */
  token?: TokenRef;
  /** Only trades signed by this account (lowercase). */
  sender?: Address;
  /** Only trades whose volumeUsd (10^18-scaled) is at least this (checked row by row). */
  minVolumeUsd?: bigint;
  /**
   * Only trades that went through this pool (lowercase; one of their `pools`): the trades then
   * carry their marks, whose hops hold the amounts of each pool.
   */
  pool?: Address;
  /** At most this many trades (1..10,000). */
  limit: number;
}

/** A position in the (blockNumber, logIndex) order of liquidity events: the keyset of their pages. */
interface LiquidityEventPosition {
  blockNumber: bigint;
  logIndex: number;
}

/** A page of pool events (PoolEvent) in a block range, ascending by (blockNumber, logIndex). */
export interface PoolEventQuery {
  fromBlock: bigint;
  /** Inclusive. */
  toBlock: bigint;
  /** Only events strictly after this position. */
  after?: { blockNumber: bigint; logIndex: number };
  /** At most this many events (1..10,000). */
  limit: number;
}

/** One keyset page of liquidity events (mints and burns), ascending by chain position. */
export interface LiquidityEventQuery {
  /** Block timestamps at or after this (unix seconds). */
  fromTimestamp: number;
  /** Block timestamps before this (unix seconds); default: no end. */
  toTimestamp?: number;
  /** Only events strictly after this position. */
  after?: LiquidityEventPosition;
  /** Only events at or below this block: pins a multi-page read to one indexed state. */
  maxBlock?: bigint;
  /** Only events of this pool. */
  pool?: Address;
  /** Only events of pools that hold this token (token0 or token1). */
  token?: Address;
  /** At most this many events (1..10,000). */
  limit: number;
}

/** Per-UTC-day aggregate of tracked trades. */
export interface DailyVolume {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Exact sum of the day's trades' volumeUsd (10^18-scaled). */
  volumeUsd: bigint;
  /** Distinct transaction senders that swapped that day. */
  traderCount: number;
  tradeCount: number;
  untrackedCount: number;
}

/** Candle widths in seconds: 1 minute, 5 minutes, 1 hour, 1 UTC day. */
export const CANDLE_INTERVALS = [60, 300, 3_600, 86_400] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/**
 * What a candle series charts. A token: its USD price (the native coin is charted as its wrapped
 * token). A pool: the price of its token0 in its token1, from the pool's own swaps.
 */
export type CandleSubject = { kind: "token"; token: Address } | { kind: "pool"; pool: Address };

/** One read of a candle series: buckets ascending by start, over the store's primary key. */
export interface CandleQuery {
  subject: CandleSubject;
  interval: CandleInterval;
  /** Buckets from the one holding this instant (unix seconds) on. */
  fromTimestamp: number;
  /** Buckets that start before this (unix seconds); default: no end. */
  toTimestamp?: number;
  /** At most this many buckets (1..10,000). */
  limit: number;
}

/**
 * OHLCV of one bucket: maintained by the indexer with the trades, buckets without a trade are
 * absent. Token candles: prices are USD per whole token (10^18-scaled), `volume` is the token
 * bought and sold (smallest units), `quoteVolume` the trades' USD value (10^18-scaled, 0 for
 * untracked trades). Pool candles: prices are token1 smallest units per token0 smallest unit,
 * scaled by 10^36 (POOL_PRICE_SCALE), `volume` is token0 and `quoteVolume` token1 the pool took
 * in and sent out.
 */
export interface Candle {
  /** Start of the bucket (unix seconds, a multiple of the interval). */
  start: number;
  /** Price at the bucket's first priced trade (by block, transaction, log); undefined when none was priced. */
  open: bigint | undefined;
  high: bigint | undefined;
  low: bigint | undefined;
  /** Price at the bucket's last priced trade. */
  close: bigint | undefined;
  volume: bigint;
  quoteVolume: bigint;
  /** Trades of the token, or swaps through the pool (a trade that crosses a pool twice counts twice). */
  tradeCount: number;
  /**
   * The USD value (10^18-scaled) of the bucket's trades: each trade's volumeUsd, once per sample
   * (for a token candle the same as quoteVolume; for a pool candle the trades that crossed the
   * pool, once per crossing). Undefined for a pool bucket that holds trades stored before schema
   * version 5 (their per-pool USD value was not kept): such buckets age out with the window.
   */
  volumeUsd: bigint | undefined;
}

/** Sums of one interval's candles of several series over a time range (see MarketReader.sumCandles). */
export interface CandleSumQuery {
  kind: CandleSubject["kind"];
  /**
   * Token (wrapped for the native coin) or pool addresses; each is read over the primary key.
   * Absent: every series of the kind, read by time over the hourly index (hourly candles only).
   */
  subjects?: readonly Address[];
  interval: CandleInterval;
  /** Buckets that start at or after this (unix seconds). */
  fromTimestamp: number;
  /** Buckets that start at or before this (unix seconds). */
  toTimestamp: number;
}

/** A series' candles summed over a CandleSumQuery's range. */
export interface CandleTotals {
  volume: bigint;
  quoteVolume: bigint;
  /** Undefined when a bucket in the range has no USD value (see Candle.volumeUsd). */
  volumeUsd: bigint | undefined;
  tradeCount: number;
  /** The highest and lowest price of the range's buckets; undefined when none was priced. */
  high: bigint | undefined;
  low: bigint | undefined;
}

const higher = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined || (b !== undefined && b > a) ? b : a;
const lower = (a: bigint | undefined, b: bigint | undefined) =>
  a === undefined || (b !== undefined && b < a) ? b : a;

/** A sum that is unknown when a part is: a bucket without a USD value spoils what holds it. */
export function addKnown(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  return a === undefined || b === undefined ? undefined : a + b;
}

/** Adds `part` to a subject's totals in `totals` (a copy of it when the subject is new). */
export function addCandleTotals(
  totals: Map<Address, CandleTotals>,
  subject: Address,
  part: CandleTotals,
): void {
  const total = totals.get(subject);
  if (total === undefined) {
    const { volume, quoteVolume, volumeUsd, tradeCount, high, low } = part;
    totals.set(subject, { volume, quoteVolume, volumeUsd, tradeCount, high, low });
    return;
  }
  total.volume += part.volume;
  total.quoteVolume += part.quoteVolume;
  total.volumeUsd = addKnown(total.volumeUsd, part.volumeUsd);
  total.tradeCount += part.tradeCount;
  total.high = higher(total.high, part.high);
  total.low = lower(total.low, part.low);
}

/** Digits of a pool price: ratios of smallest units scaled by 10^36, exact enough for any pair of decimals. */
export const POOL_PRICE_DIGITS = 36;

/** Pool candle, book and trade prices are ratios of smallest units scaled by 10^POOL_PRICE_DIGITS. */
export const POOL_PRICE_SCALE = 10n ** BigInt(POOL_PRICE_DIGITS);

/**
 * What a MarketReader tells its listeners, per network, in chain order: `added` trades of newly
 * applied blocks; `removed` trades sent before that a reorg withdrew (every trade sent above
 * `ancestor` is gone; the new branch follows as `added`); `indexed` once the views reflect
 * `block`; `closed` when the server stops publishing (shutdown).
 */
export type MarketEvent =
  | { type: "added"; network: NetworkName; block: bigint; trades: readonly Trade[] }
  | { type: "removed"; network: NetworkName; ancestor: bigint; trades: readonly Trade[] }
  | { type: "indexed"; network: NetworkName; block: bigint }
  | { type: "closed"; network: NetworkName };

/** The swaps of every pool of a network over a time range (see MarketReader.sumPoolSwaps). */
export interface PoolSwapSumQuery {
  /** Swaps whose block timestamp is after this (unix seconds, exclusive). */
  afterTimestamp: number;
  /** Swaps at or below this block: the indexed block (its timestamp ends the range). */
  maxBlock: bigint;
}

/**
 * A pool's Swap logs summed over a PoolSwapSumQuery's range, exactly (smallest units): each log's
 * token0 and token1 amounts (the absolute net amounts it names) and its executed price.
 */
export interface PoolSwapTotals {
  /** Swap logs of the pool (a trade that crosses the pool twice has two). */
  swapCount: number;
  volume0: bigint;
  volume1: bigint;
  /** Highest and lowest amount1 x 10^36 / amount0 (POOL_PRICE_SCALE); undefined when no swap had both sides. */
  high: bigint | undefined;
  low: bigint | undefined;
}
