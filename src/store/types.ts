import type {
  Address,
  BlockRef,
  Checkpoint,
  NetworkName,
  Pair,
  PairReserves,
  Token,
  Trade,
} from "../domain/types.js";

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
  /** Trades of the range. A re-commit of the same transaction replaces it (idempotent). */
  trades: Trade[];
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
  /** Commits trades, blocks, pairs, reserves and the checkpoint in one transaction. */
  commitRange(network: NetworkName, batch: RangeBatch): Promise<void>;
  /**
   * Removes everything above `ancestor.blockNumber` (trades, blocks, reserves) and sets the
   * checkpoint to `ancestor`, in one transaction.
   */
  rollback(network: NetworkName, ancestor: Checkpoint): Promise<void>;
  /**
   * Deletes trades older than `tradesBefore` (unix seconds), blocks below `blocksBelow`, and
   * reserves rows below `blocksBelow` except the newest row of each pair.
   */
  prune(network: NetworkName, opts: { tradesBefore: number; blocksBelow: bigint }): Promise<void>;

  /** Stored blocks at or above `fromBlock`, ascending by number. */
  listBlocks(network: NetworkName, fromBlock?: bigint): Promise<BlockRef[]>;
  /** Trades with timestamp >= sinceTimestamp, ascending by (blockNumber, txIndex). */
  listTrades(network: NetworkName, sinceTimestamp: number): Promise<StoredTrade[]>;
  /** Trades with seq > afterSeq, ascending by seq (replicas tail the store with this). */
  listTradesAfter(network: NetworkName, afterSeq: bigint): Promise<StoredTrade[]>;
  listPairs(network: NetworkName): Promise<Pair[]>;
  /** The newest reserves row of each pair (of the pairs whose newest row is at or above `sinceBlock`). */
  listReserves(network: NetworkName, sinceBlock?: bigint): Promise<PairReserves[]>;

  /** Token metadata cache (outside ranges: metadata does not reorg). Upsert. */
  upsertTokens(network: NetworkName, tokens: Token[]): Promise<void>;
  listTokens(network: NetworkName): Promise<Token[]>;
  /** Addresses seen emitting Swap/Sync that are not pairs of a configured factory (not checked again). */
  addRejectedPairs(network: NetworkName, pairs: Address[]): Promise<void>;
  listRejectedPairs(network: NetworkName): Promise<Address[]>;
}
