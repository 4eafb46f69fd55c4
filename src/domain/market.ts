import type { NetworkConfig } from "../config/types.js";
import type { PoolIndex } from "../pricing/types.js";
import type { Address, NetworkName, Token, TokenRef, Trade } from "./types.js";

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
}

/** A position in the (blockNumber, txIndex, logIndex) order of trades: the keyset of list pages. */
export interface TradePosition {
  blockNumber: bigint;
  txIndex: number;
  /** A transaction can hold several trades: the log index makes the order unique. */
  logIndex: number;
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
  /** At most this many trades (1..10,000). */
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

/**
 * The one read interface the API uses. Pools, tokens and status are answered from memory;
 * trade lists and daily aggregates from the store over indexes, a bounded page at a time;
 * never RPC per request, except `resolveTokenAddress`, which may read an unknown token's
 * metadata and discover its pools once.
 */
export interface MarketReader {
  /** Configured networks. */
  networks(): readonly NetworkName[];
  /** The configuration of a configured network (native coin, DEXes, base tokens, stablecoins). */
  getConfig(network: NetworkName): NetworkConfig;
  status(network: NetworkName): NetworkStatus;
  /** One page of trades ascending by (blockNumber, txIndex, logIndex), read from the store over an index. */
  listTrades(network: NetworkName, query: TradePageQuery): Promise<readonly Trade[]>;
  /** Trades with timestamp >= since (unix seconds). */
  countTrades(network: NetworkName, since: number): Promise<number>;
  /** `days` UTC days ending with the day of `now` (unix seconds), newest first; empty days are zero. */
  listDailyVolumes(network: NetworkName, days: number, now: number): Promise<DailyVolume[]>;
  /** The live pool graph of the network (routing and pricing read it; only the indexer updates it). */
  getPoolIndex(network: NetworkName): PoolIndex;
  /** The indexed head the pools reflect. */
  poolsBlock(network: NetworkName): bigint | undefined;
  /** Known token metadata (token list, or read from the chain before). Native coin: "" address. */
  getToken(network: NetworkName, address: Address): Token | undefined;
  /** Finds a token by symbol in the network's token list (case-insensitive), or the native coin. */
  findTokenBySymbol(network: NetworkName, symbol: string): Token | undefined;
  /**
   * Metadata of any ERC-20 address, read from the chain once and cached; its pools with the
   * base tokens are discovered through the factories and followed from then on.
   * Throws BadRequestError if the address is not an ERC-20 contract.
   */
  resolveTokenAddress(network: NetworkName, address: Address): Promise<Token>;
}
