import type { NetworkConfig } from "../config/types.js";
import type { PoolIndex } from "../pricing/types.js";
import type { Address, NetworkName, Token, Trade } from "./types.js";

/** Indexing status of one network. */
export interface NetworkStatus {
  network: NetworkName;
  /** True once the backfill reached the head; the API answers 503 for the network until then. */
  ready: boolean;
  indexedBlock: bigint | undefined;
  headBlock: bigint | undefined;
  /** Blocks between the indexed block and the head (0 when caught up). */
  lagBlocks: bigint | undefined;
  /** Set when the indexer halted (e.g. a reorg deeper than the window) or cannot reach RPC. */
  error: string | undefined;
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
 * The one read interface the API uses: answered from memory, never from SQL or RPC per
 * request, except `resolveTokenAddress`, which may read an unknown token's metadata and
 * discover its pools once.
 */
export interface MarketReader {
  /** Configured networks. */
  networks(): readonly NetworkName[];
  /** The configuration of a configured network (native coin, DEXes, base tokens, stablecoins). */
  getConfig(network: NetworkName): NetworkConfig;
  status(network: NetworkName): NetworkStatus;
  /** Trades with from <= timestamp < to (unix seconds), ascending by (blockNumber, txIndex). */
  listTrades(network: NetworkName, window: { from: number; to: number }): readonly Trade[];
  /** `days` UTC days ending with the day of `now` (unix seconds), newest first; empty days are zero. */
  listDailyVolumes(network: NetworkName, days: number, now: number): DailyVolume[];
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
