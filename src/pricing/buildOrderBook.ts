import { POOL_PRICE_SCALE } from "../domain/market.js";
import { buildTopOfBook } from "./buildTopOfBook.js";
import { getAmountOut } from "./getAmountOut.js";
import type { OrderBook, OrderBookLevel, OrderBookShape } from "./orderBookTypes.js";
import { poolPriceAndFee } from "./poolPriceAndFee.js";
import type { PoolState } from "./types.js";
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./v3/getSqrtRatioAtTick.js";
import { TWO_256 } from "./v3/mulDiv.js";
import { swapExactInput } from "./v3/swapExactInput.js";

const PPM = 1_000_000n;
// An input no pool can use up before its price limit: the swap then stops at the limit.
const UNBOUNDED = TWO_256 / 4n;

/** Largest integer square root at or below `value` (Newton's method from a power of two above it). */
function isqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = 1n << BigInt((value.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + value / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * The largest input of a V2 pair (token1 in for an ask, token0 in for a bid) that leaves its
 * state price within `mul / div` of the mid, with the pair's exact output for it; found by
 * bisection over the pair's own formula (its price after the swap only moves one way with the input).
 */
function v2Edge(
  pool: PoolState,
  ask: boolean,
  mul: bigint,
  div: bigint,
  from: bigint,
): { amountIn: bigint; amountOut: bigint } {
  const { reserve0: r0, reserve1: r1, feeBps } = pool;
  const within = (amountIn: bigint): boolean => {
    if (ask) {
      const out = getAmountOut(amountIn, r1, r0, feeBps);
      if (out >= r0) return false;
      // (r1 + in) / (r0 - out) <= (r1 / r0) * mul / div
      return (r1 + amountIn) * r0 * div <= r1 * mul * (r0 - out);
    }
    const out = getAmountOut(amountIn, r0, r1, feeBps);
    if (out >= r1) return false;
    // (r1 - out) / (r0 + in) >= (r1 / r0) * mul / div
    return (r1 - out) * r0 * div >= r1 * mul * (r0 + amountIn);
  };
  // The price moves at least as far as it would without the output leaving: a bound on the input.
  let high = ask ? (r1 * (mul - div)) / div + 1n : (r0 * (div - mul)) / mul + 1n;
  let low = from;
  if (!within(low)) low = 0n;
  if (within(high)) high = high * 2n;
  while (low < high) {
    const middle = (low + high + 1n) >> 1n;
    if (within(middle)) low = middle;
    else high = middle - 1n;
  }
  return {
    amountIn: low,
    amountOut: ask ? getAmountOut(low, r1, r0, feeBps) : getAmountOut(low, r0, r1, feeBps),
  };
}

/**
 * A pool's synthetic order book: `levels` asks and `levels` bids at equal steps of the pool's
 * state price out to `rangePpm` millionths of its mid price (the step edges mid x (1 +- k x
 * range / levels)). Each level's amounts are exactly what the pool trades while its price moves
 * across that step: the difference of two swaps from the current state, one to each edge (V2:
 * the largest input that keeps the pair's price within the edge, by its constant-product formula
 * with its fee; V3: a swap with the edge as its price limit, across the initialized ticks with
 * the pool's own math, as QuoterV2 computes it). A level's price is the marginal price at its
 * edge with the fee (asks: the edge over one minus the fee; bids: times it). Undefined for an
 * empty pool. Pure; the cost is one swap walk per level and side.
 */
export function buildOrderBook(pool: PoolState, shape: OrderBookShape): OrderBook | undefined {
  const { levels, rangePpm } = shape;
  if (!Number.isInteger(levels) || levels < 0) throw new RangeError(`levels must be >= 0, got ${levels}`);
  if (!Number.isInteger(rangePpm) || rangePpm <= 0 || rangePpm >= 1_000_000) {
    throw new RangeError(`rangePpm must be in (0, 1000000), got ${rangePpm}`);
  }
  const p = poolPriceAndFee(pool);
  const top = buildTopOfBook(pool);
  if (p === undefined || top === undefined) return undefined;
  const keep = p.feeDen - p.fee;
  // Edge k of a side is the mid times (div +- k x range) / div.
  const div = PPM * BigInt(levels);
  const range = BigInt(rangePpm);

  const side = (ask: boolean): OrderBookLevel[] => {
    const out: OrderBookLevel[] = [];
    let lastIn = 0n;
    let lastOut = 0n;
    for (let k = 1; k <= levels; k++) {
      const mul = ask ? div + BigInt(k) * range : div - BigInt(k) * range;
      let amountIn: bigint;
      let amountOut: bigint;
      let sqrtPriceX96: bigint | undefined;
      if (pool.v3 !== undefined && pool.v3State !== undefined) {
        const state = pool.v3State;
        let limit = isqrt((state.sqrtPriceX96 * state.sqrtPriceX96 * mul) / div);
        if (limit >= MAX_SQRT_RATIO) limit = MAX_SQRT_RATIO - 1n;
        if (limit <= MIN_SQRT_RATIO) limit = MIN_SQRT_RATIO + 1n;
        sqrtPriceX96 = limit;
        const beyond = ask ? limit > state.sqrtPriceX96 : limit < state.sqrtPriceX96;
        if (beyond) {
          const swap = swapExactInput(
            { ...state, fee: pool.v3.fee, tickSpacing: pool.v3.tickSpacing },
            !ask,
            UNBOUNDED,
            limit,
          );
          amountIn = swap.amountIn;
          amountOut = swap.amountOut;
        } else {
          amountIn = 0n;
          amountOut = 0n;
        }
      } else {
        ({ amountIn, amountOut } = v2Edge(pool, ask, mul, div, lastIn));
      }
      // Marginal price at the edge, fee included: asks pay more than the state price, bids get less.
      const price = ask
        ? ceilDiv(p.num * mul * POOL_PRICE_SCALE * p.feeDen, p.den * div * keep)
        : (p.num * mul * POOL_PRICE_SCALE * keep) / (p.den * div * p.feeDen);
      const level: OrderBookLevel = {
        price,
        amount0: ask ? amountOut - lastOut : amountIn - lastIn,
        amount1: ask ? amountIn - lastIn : amountOut - lastOut,
      };
      if (sqrtPriceX96 !== undefined) level.sqrtPriceX96 = sqrtPriceX96;
      out.push(level);
      lastIn = amountIn;
      lastOut = amountOut;
    }
    return out;
  };
  return { ...top, asks: side(true), bids: side(false) };
}
