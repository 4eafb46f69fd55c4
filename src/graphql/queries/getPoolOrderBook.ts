import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Token } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import type { OrderBook } from "../../pricing/orderBookTypes.js";
import { getPoolBook, rangePpmOf } from "../../views/getPoolBook.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import type { PoolSource } from "./listPools.js";

/** Most levels a side of a book may have. */
const MAX_BOOK_LEVELS = 500;

/** Arguments of Pool.orderBook (null where GraphQL passes an explicit null). */
export interface OrderBookArgs {
  levels?: number | null;
  rangePercent?: string | null;
}

/** An order-book level as Pool.orderBook serves it. */
export interface OrderBookLevelOutput {
  price: string;
  amount0: bigint;
  amount1: bigint;
  sqrtPriceX96: bigint | null;
}

/**
 * Pool.orderBook: the pool's curve cut into `levels` steps a side over `rangePercent` of its mid
 * price (buildOrderBook), prices as token1 per whole token0. Null for a pool with an empty side;
 * 400 for arguments out of range.
 */
export async function getPoolOrderBook(pool: PoolSource, args: OrderBookArgs, ctx: GraphqlContext) {
  const levels = args.levels ?? 50;
  if (!Number.isInteger(levels) || levels < 0 || levels > MAX_BOOK_LEVELS) {
    throw new BadRequestError(`levels must be between 0 and ${MAX_BOOK_LEVELS}.`);
  }
  const rangePpm = rangePpmOf(args.rangePercent ?? "2");
  const book = getPoolBook(pool, levels, rangePpm);
  if (book === undefined) return null;
  const decimalsOf = async (address: PoolSource["token0"]) =>
    (ctx.peekToken(pool.network, address) ?? ((await ctx.tokens(pool.network).load(address)) as Token))
      .decimals;
  const d0 = await decimalsOf(pool.token0);
  const d1 = await decimalsOf(pool.token1);
  const price = (raw: bigint) => formatPoolPrice(raw, d0, d1);
  const level = (l: OrderBook["asks"][number]): OrderBookLevelOutput => ({
    price: price(l.price),
    amount0: l.amount0,
    amount1: l.amount1,
    sqrtPriceX96: l.sqrtPriceX96 ?? null,
  });
  return {
    midPrice: price(book.mid),
    bestAsk: price(book.bestAsk),
    bestBid: price(book.bestBid),
    asks: book.asks.map(level),
    bids: book.bids.map(level),
  };
}
