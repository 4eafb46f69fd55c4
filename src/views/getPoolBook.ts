import { BadRequestError } from "../errors.js";
import { buildOrderBook } from "../pricing/buildOrderBook.js";
import type { OrderBook } from "../pricing/orderBookTypes.js";
import type { PoolState } from "../pricing/types.js";

const PERCENT = /^(0|[1-9][0-9]?)(\.[0-9]{1,4})?$/;

/** `rangePercent` ("2", "0.5", up to 4 decimals) in millionths; 400 when out of (0, 100). */
export function rangePpmOf(text: string): number {
  const match = PERCENT.exec(text);
  const ppm = match === null ? 0 : Math.round(Number(text) * 10_000);
  if (match === null || ppm <= 0 || ppm >= 1_000_000) {
    throw new BadRequestError(
      "rangePercent must be a decimal above 0 and below 100, with at most 4 decimals.",
    );
  }
  return ppm;
}

// Books of one pool state are kept with it (states are never changed in place): the listings ask
// the same pool for the same shape once per block.
const kept = new WeakMap<object, Map<string, OrderBook | undefined>>();

/**
 * The pool's curve cut into `levels` steps a side over `rangePpm` millionths of its mid price
 * (buildOrderBook), kept with the pool's state; undefined for a pool with an empty side.
 */
export function getPoolBook(pool: PoolState, levels: number, rangePpm: number): OrderBook | undefined {
  const stateKey = (pool.v3State ?? pool) as object;
  let books = kept.get(stateKey);
  if (books === undefined) {
    books = new Map();
    kept.set(stateKey, books);
  }
  const key = `${pool.address}:${pool.reserve0}:${pool.reserve1}:${levels}:${rangePpm}`;
  if (!books.has(key)) books.set(key, buildOrderBook(pool, { levels, rangePpm }));
  return books.get(key);
}
