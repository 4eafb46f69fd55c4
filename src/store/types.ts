import type {
  Candle,
  CandleQuery,
  CandleSumQuery,
  CandleTotals,
  LiquidityEventQuery,
  PoolEventQuery,
  PoolSwapSumQuery,
  PoolSwapTotals,
  TradePageQuery,
} from "../domain/market.js";
import type {
  LastPriceQuery,
  PoolLastPricesQuery,
  TradeStatsQuery,
  TradeWindowTotals,
} from "../domain/tradeStats.js";
import type {
  Address,
  BlockRef,
  Checkpoint,
  LiquidityEvent,
  NetworkName,
  Pair,
  PairReserves,
  PoolEvent,
  Token,
  Trade,
  V3PoolPrice,
  V3TickLiquidity,
} from "../domain/types.js";

export type {
  TradePageQuery,
  TradePosition,
} from "../domain/market.js";

/** Everything the indexer commits for one block range, atomically with its checkpoint. */
export interface RangeBatch {
  /** After commit, every block up to and including this one is stored. */
  checkpoint: Checkpoint;
  /** Blocks of the range that must be kept for reorg detection (hash + parentHash). */
  blocks: BlockRef[];
  /** Pairs accepted in this range (belong to a configured factory). Upsert. */
  pairs: Pair[];
  /** Reserves after the last Sync of each pair in each block of the range. */
  reserves: PairReserves[];
  /** Trades of the range. A re-commit of a transaction replaces all its trades (idempotent). */
  trades: Trade[];
  /** V3 pools: price and active liquidity after each pool's last event in each block of the range. Upsert. */
  v3Prices?: V3PoolPrice[];
  /** V3 pools: each tick a Mint or Burn changed, as it stands after each block of the range. Upsert. */
  v3Ticks?: V3TickLiquidity[];
  /**
   * Mints and burns of the range (V2 and V3). A re-commit replaces the range's events: every
   * stored event of a block in `blocks` or holding one of these events goes first. Absent: stored
   * events are left alone.
   */
  liquidityEvents?: LiquidityEvent[];
  /**
   * Swaps, joins and exits of the range, one per pool log, with the reserves after each. A
   * re-commit replaces the range's events like liquidityEvents. Absent: stored events are left alone.
   */
  poolEvents?: PoolEvent[];
}

/** What Store.prune deletes. */
export interface PruneOptions {
  /** Trades older than this (unix seconds); daily aggregates and candles of the days before its day. */
  tradesBefore: number;
  /**
   * Blocks below this number, reserves rows below it except each pair's newest, and V3 price and
   * tick rows below it except each pool's and tick's newest at or below it.
   */
  blocksBelow: bigint;
}

/** The store's per-UTC-day aggregate, maintained with the trades in the same transactions. */
export interface DayAggregate {
  /** Days since 1970-01-01 (UTC): floor(timestamp / 86,400). */
  day: number;
  /** Exact sum of the day's trades' volumeUsd (10^18-scaled). */
  volumeUsd: bigint;
  tradeCount: number;
  untrackedCount: number;
  /** Distinct transaction senders that day. */
  traderCount: number;
}

/** What the writer last learned of the chain head: replicas judge freshness by it. */
export interface HeadRecord {
  headBlock: bigint;
  /** Unix milliseconds when the writer last got an answer for the head from RPC. */
  checkedAt: number;
  /** Unix milliseconds when the checkpoint last equalled the head the writer saw. */
  syncedAt: number | undefined;
}

/** A trade row as read back, with the store's increasing sequence (for replicas that tail the store). */
export interface StoredTrade extends Trade {
  seq: bigint;
}

/**
 * The durable log. One interface, two backends (SQLite, PostgreSQL); both pass one test suite.
 * Only the indexer writes. Every write method is one transaction.
 */
export interface Store {
  readonly kind: "sqlite" | "postgres";
  /** Applies the versioned migrations that are not applied yet. Idempotent. */
  migrate(): Promise<void>;
  close(): Promise<void>;

  /**
   * Tries to become the single writer (indexer) of a network; true when this store holds it.
   * PostgreSQL: a session advisory lock, released when the process or its connection dies, and
   * every later write of the network checks it still holds the lock. SQLite: always true (one
   * process owns an SQLite store).
   */
  tryAcquireWriter(network: NetworkName): Promise<boolean>;

  getCheckpoint(network: NetworkName): Promise<Checkpoint | undefined>;
  /**
   * Commits trades, blocks, pairs, reserves, V3 prices and ticks, liquidity events, the
   * checkpoint, the trades' daily aggregates and their candles in one transaction (a re-committed
   * transaction replaces its earlier contribution).
   */
  commitRange(network: NetworkName, batch: RangeBatch): Promise<void>;
  /**
   * Removes everything above `ancestor.blockNumber` (trades, blocks, reserves, V3 prices and
   * ticks, liquidity events: each pool's and tick's newest remaining row is again its state) and sets the
   * checkpoint to `ancestor`, in one transaction; the daily aggregates lose exactly the
   * removed trades (volume, counts, and senders with no other trade that day), and the candles
   * they touched are recomputed from the trades that remain.
   */
  rollback(network: NetworkName, ancestor: Checkpoint): Promise<void>;
  /**
   * Deletes trades and liquidity events older than `tradesBefore` (unix seconds), blocks below
   * `blocksBelow`, reserves rows below `blocksBelow` except the newest row of each pair, and V3
   * price and tick rows below it that a newer row at or below it replaces (the state at every
   * block from `blocksBelow` on reads the same; a tick whose row there has gross 0 may go whole).
   * Daily aggregates and candles (every interval) of days entirely before `tradesBefore`'s day go
   * too (the day it falls in is kept whole).
   */
  prune(network: NetworkName, opts: PruneOptions): Promise<void>;

  /** Stored blocks at or above `fromBlock`, ascending by number. */
  listBlocks(network: NetworkName, fromBlock?: bigint): Promise<BlockRef[]>;
  /**
   * One page of trades ascending by (blockNumber, txIndex, logIndex), read over an index (what the
   * API lists); with their seq, and with their marks when the page is a pool's.
   */
  listTradePage(network: NetworkName, query: TradePageQuery): Promise<StoredTrade[]>;
  /** Trades with timestamp >= sinceTimestamp (an index count, for metrics). */
  countTrades(network: NetworkName, sinceTimestamp: number): Promise<number>;
  /** Daily aggregates of the days fromDay..toDay inclusive (day numbers) that have trades, any order. */
  listDayAggregates(network: NetworkName, fromDay: number, toDay: number): Promise<DayAggregate[]>;
  /** One page of a token's or pool's candles, ascending by start, read over the primary key. */
  listCandles(network: NetworkName, query: CandleQuery): Promise<Candle[]>;
  /** Several series' candles summed over a range (MarketReader.sumCandles), read over the primary key. */
  sumCandles(network: NetworkName, query: CandleSumQuery): Promise<Map<Address, CandleTotals>>;
  /**
   * Market stats of a token or pool: per window, buys, sells, distinct buyers and sellers and USD
   * volume of the trades in it (buildTradeStatsSql), one aggregate over the longest window's range.
   */
  getTradeStats(network: NetworkName, query: TradeStatsQuery): Promise<TradeWindowTotals[]>;
  /**
   * Every pool's Swap logs over a time range (count, absolute token amounts, highest and lowest
   * price), one grouped read over pool_events' timestamp index (buildPoolSwapSumSql).
   */
  sumPoolSwaps(network: NetworkName, query: PoolSwapSumQuery): Promise<Map<Address, PoolSwapTotals>>;
  /** A token's or pool's price (candle sample rules) just before an instant; undefined when it never had one. */
  getLastPrice(network: NetworkName, query: LastPriceQuery): Promise<bigint | undefined>;
  /**
   * Several pools' prices just before several instants: for each asked pool (an entry each), what
   * getLastPrice of the pool (withNative false) answers at each instant, in the instants' order.
   * A fixed number of statements whatever the number of pools (buildPoolLastPricesSql).
   */
  getPoolLastPrices(
    network: NetworkName,
    query: PoolLastPricesQuery,
  ): Promise<Map<Address, (bigint | undefined)[]>>;
  /** Records the head the writer last saw (outside ranges; one row per network). */
  saveHead(network: NetworkName, head: HeadRecord): Promise<void>;
  getHead(network: NetworkName): Promise<HeadRecord | undefined>;
  listPairs(network: NetworkName): Promise<Pair[]>;
  /** The newest reserves row of each pair (of the pairs whose newest row is at or above `sinceBlock`). */
  listReserves(network: NetworkName, sinceBlock?: bigint): Promise<PairReserves[]>;
  /** The newest price row of each V3 pool (of the pools whose newest row is at or above `sinceBlock`), by pool. */
  listV3Prices(network: NetworkName, sinceBlock?: bigint): Promise<V3PoolPrice[]>;
  /**
   * The newest row of each V3 tick (of the ticks whose newest row is at or above `sinceBlock`), by
   * pool and tick. With `sinceBlock`, rows with gross 0 are included so a follower learns a tick
   * left; without it they are left out (the initialized ticks only).
   */
  listV3Ticks(network: NetworkName, sinceBlock?: bigint): Promise<V3TickLiquidity[]>;
  /** One page of liquidity events ascending by (blockNumber, logIndex), read over an index. */
  listLiquidityEvents(network: NetworkName, query: LiquidityEventQuery): Promise<LiquidityEvent[]>;
  /** One page of pool events of a block range ascending by (blockNumber, logIndex), over the primary key. */
  listPoolEvents(network: NetworkName, query: PoolEventQuery): Promise<PoolEvent[]>;

  /** Token metadata cache (outside ranges: metadata does not reorg). Upsert. */
  upsertTokens(network: NetworkName, tokens: Token[]): Promise<void>;
  listTokens(network: NetworkName): Promise<Token[]>;
  /** Addresses seen emitting Swap/Sync that are not pairs of a configured factory (not checked again). */
  addRejectedPairs(network: NetworkName, pairs: Address[]): Promise<void>;
  listRejectedPairs(network: NetworkName): Promise<Address[]>;
}
