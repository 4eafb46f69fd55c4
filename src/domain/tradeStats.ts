import type { CandleSubject } from "./market.js";
import type { Address } from "./types.js";

/**
 * What a market-stats read counts: the trades of one token or through one pool in windows that
 * all end at `toTimestamp` (exclusive) and start at each of `fromTimestamps` (inclusive).
 */
export interface TradeStatsQuery {
  /** A token (its ERC-20 address) or a pool. */
  subject: CandleSubject;
  /** Token stats: count the native coin's trades ("" in a trade) as this token's (it is the wrapped token). */
  withNative: boolean;
  /** Window starts, unix seconds, each before toTimestamp. */
  fromTimestamps: readonly number[];
  /** The end of every window, exclusive (unix seconds). */
  toTimestamp: number;
  /** Only trades at or below this block (the indexed state the answer is of). */
  maxBlock: bigint;
}

/** The trades of one window of a TradeStatsQuery. */
export interface TradeWindowTotals {
  /** Trades that bought the token (for a pool: its token0). */
  buys: number;
  /** Trades that sold the token (for a pool: its token0). */
  sells: number;
  /** Distinct signers of the buys. */
  buyers: number;
  /** Distinct signers of the sells. */
  sellers: number;
  /** Sum of the trades' volumeUsd (10^18-scaled; untracked trades count 0), each trade once. */
  volumeUsd: bigint;
}

/** The price a series (candles' sample rules) had just before an instant. */
export interface LastPriceQuery {
  subject: CandleSubject;
  /** Token series: native-coin trades count as the wrapped token. */
  withNative: boolean;
  /** Only samples of trades with a timestamp before this (unix seconds). */
  beforeTimestamp: number;
  /** Only trades at or below this block. */
  maxBlock: bigint;
}

/** An instant a PoolLastPricesQuery prices its pools just before (LastPriceQuery's bounds). */
export interface PriceInstant {
  /** Only samples of trades with a timestamp before this (unix seconds). */
  beforeTimestamp: number;
  /** Only trades at or below this block. */
  maxBlock: bigint;
}

/**
 * Several pools' prices just before several instants, in one grouped read: for each pool and
 * instant, what a LastPriceQuery of the pool (withNative false) at that instant answers.
 */
export interface PoolLastPricesQuery {
  pools: readonly Address[];
  /** At most MAX_PRICE_INSTANTS (each adds a minute of trades to the read). */
  instants: readonly PriceInstant[];
}
