import type { Address, Pair, PoolBalances } from "../domain/types.js";
import type { ReadonlyTickTable } from "./v3/createTickTable.js";

/**
 * A pool with its current reserves: the edge of the pool graph. A V3 pool's reserves are its
 * virtual reserves at the current price (what its active liquidity is worth there: the depth
 * the thin-pool guard weighs and the mid price), and `v3State` holds what quotes walk.
 */
export interface PoolState extends Pair {
  reserve0: bigint;
  reserve1: bigint;
  /** A V3 pool's price, active liquidity and initialized ticks, as its events left them. */
  v3State?: V3State;
}

/** A V3 pool's state. Never changed in place: a change makes a new object (ticks cloned on write). */
export interface V3State {
  sqrtPriceX96: bigint;
  tick: number;
  /** Liquidity in range at the current tick. */
  liquidity: bigint;
  /** Initialized ticks. */
  ticks: ReadonlyTickTable;
  /**
   * The token amounts the pool holds (balanceOf), kept from its events: what its TVL is. Absent
   * when unknown (state stored before schema version 9, not yet read again). Never used to quote.
   */
  balances?: PoolBalances;
}

/** One hop of a route. */
export interface RouteHop {
  pool: PoolState;
  tokenIn: Address;
  tokenOut: Address;
  amountIn: bigint;
  amountOut: bigint;
}

/** The best route found for an exact input amount. */
export interface Route {
  /** Token addresses along the route, sell first, buy last (wrapped native for the native coin). */
  path: Address[];
  hops: RouteHop[];
  amountIn: bigint;
  amountOut: bigint;
  /**
   * Price impact in parts per million: how much worse the executed price is than the
   * mid price (reserve ratio, fees excluded) along the route.
   */
  priceImpactPpm: bigint;
}

/** Pricing parameters of a network (derived from NetworkConfig). */
export interface PricingParams {
  wrappedNative: Address;
  stablecoins: ReadonlySet<Address>;
  /** Whitelisted tokens: routing intermediates and tokens that may price others. */
  baseTokens: ReadonlySet<Address>;
  /** Minimum USD (10^18-scaled) on the whitelisted side of a pair for it to price a token. */
  minLiquidityUsd: bigint;
  /** Decimals of every token that may appear in a pool (needed to compare values across tokens). */
  decimals: (token: Address) => number | undefined;
}

/** Pools indexed by token: the graph routing and USD pricing walk. Built by createPoolIndex. */
export interface PoolIndex {
  /** Pools that hold `token` (either side). */
  poolsOf(token: Address): readonly PoolState[];
  /** A pool by pair address. */
  get(pair: Address): PoolState | undefined;
  /** Every pool. */
  all(): readonly PoolState[];
  /** Inserts a pool or replaces its reserves. */
  update(pool: PoolState): void;
  /** Pools between `a` and `b` (any DEX), in either token order: what routing and pricing look up. */
  poolsBetween(a: Address, b: Address): readonly PoolState[];
  /** Removes a pool (e.g. a reorg undid its creation). */
  remove(pair: Address): void;
  /** Increases on every change, so derived values (USD prices) can be cached per version. */
  readonly version: number;
}
