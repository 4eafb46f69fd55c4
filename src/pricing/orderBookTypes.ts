/** One level of a synthetic book: what the pool trades while its price moves across one step. */
export interface OrderBookLevel {
  /**
   * The marginal price a taker gets at the level's far edge, fee included (token1 per token0,
   * smallest units, x10^36; asks rounded up, bids down): every unit of the level trades at this
   * price or better.
   */
  price: bigint;
  /** token0 the pool gives (ask) or takes (bid) across the level, smallest units. */
  amount0: bigint;
  /** token1 the pool takes (ask, fee included) or gives (bid) across the level, smallest units. */
  amount1: bigint;
  /** V3: the sqrtPriceX96 the level ends at (the price limit of a swap through it); V2: undefined. */
  sqrtPriceX96?: bigint;
}

/** A pool's synthetic order book: its curve cut into equal price steps on both sides of the mid. */
export interface OrderBook {
  /** The pool's state price, no fee (x10^36). */
  mid: bigint;
  /** The price of the first unit bought from the pool (mid over one minus the fee), rounded up. */
  bestAsk: bigint;
  /** The price of the first unit sold to it (mid times one minus the fee), rounded down. */
  bestBid: bigint;
  /** Ascending prices: buying token0 from the pool. */
  asks: OrderBookLevel[];
  /** Descending prices: selling token0 to the pool. */
  bids: OrderBookLevel[];
}

/** What a book is cut into: `levels` steps a side over `rangePpm` millionths of the mid price. */
export interface OrderBookShape {
  levels: number;
  rangePpm: number;
}
