import type { NetworkConfig } from "../config/types.js";
import type {
  Candle,
  CandleQuery,
  CandleSumQuery,
  CandleTotals,
  DailyVolume,
  LiquidityEventQuery,
  MarketEvent,
  NetworkStatus,
  PoolEventQuery,
  PoolSwapSumQuery,
  PoolSwapTotals,
  TradePageQuery,
  TradePosition,
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
  LiquidityEvent,
  NetworkName,
  PoolEvent,
  Token,
  Trade,
} from "../domain/types.js";
import type { PoolIndex } from "../pricing/types.js";

/**
 * The market as it is now, answered from memory: configured networks, their status, the live pool
 * graph and the known tokens. Never a store read, never RPC.
 */
export interface MarketState {
  /** Configured networks. */
  networks(): readonly NetworkName[];
  /** The configuration of a configured network (native coin, DEXes, base tokens, stablecoins). */
  getConfig(network: NetworkName): NetworkConfig;
  status(network: NetworkName): NetworkStatus;
  /** The live pool graph of the network (routing and pricing read it; only the indexer updates it). */
  getPoolIndex(network: NetworkName): PoolIndex;
  /** The indexed head the pools reflect. */
  poolsBlock(network: NetworkName): bigint | undefined;
  /** Known token metadata (token list, or read from the chain before). Native coin: "" address. */
  getToken(network: NetworkName, address: Address): Token | undefined;
  /**
   * Every token the views know on the network: the token list and the tokens the indexer
   * discovered (not the native coin, which trades as its wrapped token).
   */
  listKnownTokens(network: NetworkName): readonly Token[];
  /** Finds a token by symbol in the network's token list (case-insensitive), or the native coin. */
  findTokenBySymbol(network: NetworkName, symbol: string): Token | undefined;
}

/**
 * The indexed history, read from the store over indexes, a bounded page or one aggregate at a time.
 */
export interface MarketHistory {
  /** One page of trades ascending by (blockNumber, txIndex, logIndex), read from the store over an index. */
  listTrades(network: NetworkName, query: TradePageQuery): Promise<readonly Trade[]>;
  /** One page of liquidity events (mints and burns) ascending by (blockNumber, logIndex), read from the store. */
  listLiquidityEvents(network: NetworkName, query: LiquidityEventQuery): Promise<readonly LiquidityEvent[]>;
  /** One page of pool events (swaps, joins, exits) of a block range ascending by (blockNumber, logIndex), read from the store. */
  listPoolEvents(network: NetworkName, query: PoolEventQuery): Promise<readonly PoolEvent[]>;
  /** A stored block (the unfinalized window and range ends are kept), or undefined. */
  getStoredBlock(network: NetworkName, blockNumber: bigint): Promise<BlockRef | undefined>;
  /** Trades with timestamp >= since (unix seconds). */
  countTrades(network: NetworkName, since: number): Promise<number>;
  /** `days` UTC days ending with the day of `now` (unix seconds), newest first; empty days are zero. */
  listDailyVolumes(network: NetworkName, days: number, now: number): Promise<DailyVolume[]>;
  /** One page of a token's or pool's candles, ascending by start, read from the store. */
  listCandles(network: NetworkName, query: CandleQuery): Promise<readonly Candle[]>;
  /**
   * The candles of several series summed over a range, in one bounded store read (at most one
   * bucket per interval step per series): a series without a bucket in the range is absent.
   */
  sumCandles(network: NetworkName, query: CandleSumQuery): Promise<Map<Address, CandleTotals>>;
  /** Market stats windows of a token or pool, one aggregate store read (Store.getTradeStats). */
  getTradeStats(network: NetworkName, query: TradeStatsQuery): Promise<TradeWindowTotals[]>;
  /** Every pool's swaps over a time range, one grouped store read (Store.sumPoolSwaps). */
  sumPoolSwaps(network: NetworkName, query: PoolSwapSumQuery): Promise<Map<Address, PoolSwapTotals>>;
  /** A token's or pool's price just before an instant (Store.getLastPrice). */
  getLastPrice(network: NetworkName, query: LastPriceQuery): Promise<bigint | undefined>;
  /** Many pools' prices just before a few instants, one grouped store read (Store.getPoolLastPrices). */
  getPoolLastPrices(
    network: NetworkName,
    query: PoolLastPricesQuery,
  ): Promise<Map<Address, (bigint | undefined)[]>>;
  /**
   * Unix seconds before which no stored trade can change any more: the timestamp of the oldest
   * block a reorg could still replace (finality depth below the indexed block); commits only add
   * later blocks. Undefined when the store does not hold that block; during a backfill, which
   * keeps only each range's last block, the newest kept block at or below it answers instead.
   */
  settledBefore(network: NetworkName): Promise<number | undefined>;
}

/** What only the chain can tell: the one place a request may cause RPC, each answer read once. */
export interface MarketDiscovery {
  /**
   * A token's totalSupply at a block, read from the chain once (undefined: the token does not
   * answer, or this process reads no chain). Transport failures throw.
   */
  readTotalSupply(network: NetworkName, token: Address, blockNumber: bigint): Promise<bigint | undefined>;
  /**
   * Metadata of any ERC-20 address, read from the chain once and cached; its pools with the
   * base tokens are discovered through the factories and followed from then on.
   * Throws BadRequestError if the address is not an ERC-20 contract.
   */
  resolveTokenAddress(network: NetworkName, address: Address): Promise<Token>;
}

/** The live feed: what the views apply on each network, as it is applied. */
export interface MarketFeed {
  /**
   * Listens to what the views apply on the network: new trades, trades withdrawn by a reorg,
   * newly indexed blocks (see MarketEvent). Returns the function that stops listening.
   */
  subscribe(network: NetworkName, listener: (event: MarketEvent) => void): () => void;
  /** Listeners subscribed on the network now (open subscriptions). */
  subscriberCount(network: NetworkName): number;
  /**
   * The position up to which listeners have been told of every trade (see TradeFeed.position);
   * read in the same synchronous step as `subscribe`, the stored trades up to it and the events
   * after it are every trade once. Undefined until the views are first loaded.
   */
  feedPosition(network: NetworkName): TradePosition | undefined;
}

/**
 * The whole read model, as the composition root hands it to the edges: each reader below it asks
 * for only the parts it uses (MarketState from memory, MarketHistory from the store,
 * MarketDiscovery from the chain, MarketFeed live), so what may read the store or the chain shows
 * in its signature.
 */
export interface MarketReader extends MarketState, MarketHistory, MarketDiscovery, MarketFeed {}

/**
 * The store reads the trade feed needs: trade pages and the stored block hashes (reorg checks).
 * @internal exported for tests, which type their fakes with it.
 */
export interface FeedSource {
  listTradePage(network: NetworkName, query: TradePageQuery): Promise<readonly Trade[]>;
  listBlocks(network: NetworkName, fromBlock?: bigint): Promise<BlockRef[]>;
}

/** What the trade feed reads and is told per network (see createTradeFeed). */
export interface FeedRules {
  source: FeedSource;
  finalityDepth: (network: NetworkName) => number;
  /**
   * Whether the network follows its head (default: always). A backfill's commits are history,
   * not news: they are skipped, never read back for subscribers.
   */
  isLive?: (network: NetworkName) => boolean;
  onError?: (network: NetworkName, error: unknown) => void;
}
