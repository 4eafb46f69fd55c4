import { POOL_PRICE_SCALE } from "../domain/market.js";
import type { OrderBook } from "./orderBookTypes.js";
import { poolPriceAndFee } from "./poolPriceAndFee.js";
import type { PoolState } from "./types.js";

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/** The top of a pool's book (mid, best ask, best bid) without its levels; undefined for an empty pool. */
export function buildTopOfBook(pool: PoolState): Pick<OrderBook, "mid" | "bestAsk" | "bestBid"> | undefined {
  const p = poolPriceAndFee(pool);
  if (p === undefined) return undefined;
  const keep = p.feeDen - p.fee;
  return {
    mid: (p.num * POOL_PRICE_SCALE) / p.den,
    bestAsk: ceilDiv(p.num * POOL_PRICE_SCALE * p.feeDen, p.den * keep),
    bestBid: (p.num * POOL_PRICE_SCALE * keep) / (p.den * p.feeDen),
  };
}
