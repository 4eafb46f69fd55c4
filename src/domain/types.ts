/** Domain types shared by every part. Amounts are bigint in smallest units; USD is bigint scaled by 10^18. */

/** The networks the public API names. */
export const NETWORKS = ["bsc", "eth", "polygon"] as const;
export type NetworkName = (typeof NETWORKS)[number];

/** A lowercase 0x-prefixed 20-byte hex address. */
export type Address = `0x${string}`;
/** A lowercase 0x-prefixed 32-byte hex hash. */
export type Hash = `0x${string}`;

/** The native coin of a chain is written as the empty address, as the public API shows it. */
export const NATIVE = "" as const;
export type TokenRef = Address | typeof NATIVE;

/** USD fixed-point scale: 1 USD = 10^18. */
export const USD_SCALE = 10n ** 18n;

/** Token metadata as read from the chain (or the token list). */
export interface Token {
  /** Lowercase address, or "" for the native coin. */
  address: TokenRef;
  name: string;
  symbol: string;
  decimals: number;
}

/** A block of the indexed chain: kept for the unfinalized window to detect reorgs. */
export interface BlockRef {
  number: bigint;
  hash: Hash;
  parentHash: Hash;
  /** Unix seconds. */
  timestamp: number;
}

/** A Uniswap-V2-style pair that belongs to a configured factory. */
export interface Pair {
  address: Address;
  /** Name of the DEX (from config) the pair's factory belongs to. */
  dex: string;
  factory: Address;
  token0: Address;
  token1: Address;
  /**
   * Fee numerator over 10_000 (30 = 0.30% for Uniswap V2, 25 = 0.25% for PancakeSwap V2). A V3
   * pool's fee in whole basis points (its exact fee is `v3.fee`).
   */
  feeBps: number;
  /** Set on a concentrated-liquidity pool (Uniswap V3, PancakeSwap V3); absent on a V2 pair. */
  v3?: V3PoolSpec;
  /** The factory log that created the pool; absent when it was not found (see findPairCreations). */
  created?: PairCreation;
}

/** Where a factory's PairCreated / PoolCreated log stands: what DEX Screener's pair asks for. */
export interface PairCreation {
  blockNumber: bigint;
  /** Unix seconds of the block. */
  timestamp: number;
  txHash: Hash;
}

/** The token amounts a pool holds (its balanceOf of each token), in smallest units. */
export interface PoolBalances {
  balance0: bigint;
  balance1: bigint;
}

/** What a concentrated-liquidity pool is created with (PoolCreated). */
export interface V3PoolSpec {
  /** Swap fee in hundredths of a basis point (pips): 100 = 0.01%, 500 = 0.05%, 2500, 3000, 10000 = 1%. */
  fee: number;
  tickSpacing: number;
}

/**
 * A V3 pool's price and active liquidity after its last event (Initialize, Swap, Mint, Burn) at or
 * before `blockNumber`: what PairReserves is to a V2 pair.
 */
export interface V3PoolPrice {
  pool: Address;
  blockNumber: bigint;
  /** Position of the last event that set it in its block. */
  logIndex: number;
  /** sqrt(token1/token0) in Q64.96, as slot0 holds it. */
  sqrtPriceX96: bigint;
  tick: number;
  /** Liquidity in range at the current tick. */
  liquidity: bigint;
  /**
   * The pool's token balances after the same event, kept from its events (see createV3Tracker);
   * absent when unknown (a row written before schema version 9).
   */
  balances?: PoolBalances;
}

/**
 * An initialized tick of a V3 pool after the last Mint or Burn at or before `blockNumber` that
 * touched it. liquidityGross 0: the tick is no longer initialized (the row records that it left).
 */
export interface V3TickLiquidity {
  pool: Address;
  blockNumber: bigint;
  tick: number;
  /** Liquidity added to the active liquidity when the price crosses the tick upwards (int128). */
  liquidityNet: bigint;
  /** Liquidity of every position that has the tick as a bound (uint128). */
  liquidityGross: bigint;
}

/** A liquidity change of a pool: a V2 Mint/Burn, a V3 Mint/Burn. */
export interface LiquidityEvent {
  network: NetworkName;
  txHash: Hash;
  blockNumber: bigint;
  /** Unix seconds of the block. */
  timestamp: number;
  txIndex: number;
  /** Position of the Mint/Burn log in its block: with the block, identifies the event. */
  logIndex: number;
  pool: Address;
  type: "mint" | "burn";
  /** The account that signed the transaction (lowercase). */
  sender: Address;
  /**
   * V3: the position's owner (a position manager for NFT positions). V2 Mint: the Mint's `sender`,
   * the account that called the pair's mint (usually a router). V2 Burn: the Burn's recipient `to`.
   */
  owner: Address;
  amount0: bigint;
  amount1: bigint;
  /** V3 only: the liquidity added or removed and the position's tick range. */
  liquidity: bigint | undefined;
  tickLower: number | undefined;
  tickUpper: number | undefined;
  /** USD value of both amounts at that block (10^18-scaled); 0 when neither side is priced. */
  amountUsd: bigint;
}

/**
 * One Swap, Mint or Burn log of a pool as listings read it (DEX Screener's events): the pool's own
 * amounts and its reserves right after that log, with the transaction's signer.
 */
export interface PoolEvent {
  network: NetworkName;
  txHash: Hash;
  blockNumber: bigint;
  /** Unix seconds of the block. */
  timestamp: number;
  txIndex: number;
  /** Position of the log in its block: with the block, identifies the event. */
  logIndex: number;
  pool: Address;
  /** swap: a Swap log; join: a Mint; exit: a Burn. */
  type: "swap" | "join" | "exit";
  /** The account that signed the transaction (lowercase). */
  maker: Address;
  /**
   * swap: what the pool took in (positive) or paid out (negative) of each token, net of both
   * sides of the log; join/exit: the amounts added or removed (positive).
   */
  amount0: bigint;
  amount1: bigint;
  /**
   * The pool's reserves right after the log: a V2 pair's Sync that precedes the log in its
   * transaction (what getReserves answers after it); a V3 pool's token balances after it, kept
   * from its events (see createV3Tracker). Undefined when unknown.
   */
  reserves: { reserve0: bigint; reserve1: bigint } | undefined;
}

/** Reserves of a pair after its last Sync at or before `blockNumber`. */
export interface PairReserves {
  pair: Address;
  blockNumber: bigint;
  /** Position of the Sync log in its block, so later syncs in the same block win. */
  logIndex: number;
  reserve0: bigint;
  reserve1: bigint;
}

/**
 * One trade = one chain of swaps on indexed pools within one transaction: the first token in and
 * the last token out, even when it hopped through several pools. Swaps chain when one's output
 * is the next one's input (the pool sent it to the next pool, or exactly that amount went on);
 * a transaction with several independent swaps (an aggregator) holds several trades.
 */
export interface Trade {
  network: NetworkName;
  txHash: Hash;
  blockNumber: bigint;
  /** Unix seconds of the block. */
  timestamp: number;
  /** Position of the transaction in its block. */
  txIndex: number;
  /** Position of the trade's first Swap log in its block: with txHash, identifies the trade. */
  logIndex: number;
  /** The account that signed the transaction (lowercase). */
  sender: Address;
  /** "" when the trader paid the native coin (the router wrapped it). */
  tokenIn: TokenRef;
  amountIn: bigint;
  /** "" when the trader received the native coin (the router unwrapped it). */
  tokenOut: TokenRef;
  amountOut: bigint;
  /** USD value at that block, scaled by 10^18; 0 when untracked. */
  volumeUsd: bigint;
  /** False when neither side could be priced (the trade is worth 0 and counted as untracked). */
  tracked: boolean;
  /** Pools the trade went through, in order. */
  pools: Address[];
  /**
   * What the trade adds to the candles, set by the indexer. Absent on trades stored before
   * candles existed (they add nothing to candles).
   */
  marks?: TradeMarks;
}

/** One pool's part of a trade: what the Swap log says it took in and sent out. */
export interface TradeHop {
  /** The pool took in token0 and sent out token1 (else the other way round). */
  zeroForOne: boolean;
  /** What the pool took in, in smallest units (after a fee-on-transfer token's tax). */
  amountIn: bigint;
  amountOut: bigint;
}

/** The facts of a trade that candles need besides its amounts (see src/store/buildCandles.ts). */
export interface TradeMarks {
  /**
   * USD price of one whole tokenIn (10^18-scaled) by the pricing rules, read from the pool graph
   * right after the trade's transaction; undefined when the rules leave the token unpriced.
   */
  priceInUsd: bigint | undefined;
  /** The same for tokenOut. */
  priceOutUsd: bigint | undefined;
  /** The wrapped token a native side ("") stands for; undefined when neither side is native. */
  native: Address | undefined;
  /** One per pool of `pools`, in order. */
  hops: TradeHop[];
}

/** Checkpoint of a network: every block up to and including `blockNumber` is committed. */
export interface Checkpoint {
  blockNumber: bigint;
  blockHash: Hash;
}

/**
 * What an RPC read is measured in when swapgraph chooses between ways to read the same facts:
 * a provider's compute units, answer bytes, calls, or estimated milliseconds (measured per URL).
 */
export type RpcCostModel = "computeUnits" | "bytes" | "calls" | "time";
