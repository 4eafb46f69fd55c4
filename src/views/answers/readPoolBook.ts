import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Address, NetworkName } from "../../domain/types.js";
import { assertNetworkReady } from "../assertNetworkReady.js";
import { getPoolBook, rangePpmOf } from "../getPoolBook.js";
import type { MarketReader } from "../types.js";
import { type AnswerFreshness, answerFreshness } from "./answerFreshness.js";
import { buildBookSide } from "./buildListingBodies.js";
import { wrongPairId } from "./parsePairId.js";
import { tokenOf } from "./readListedMarkets.js";

/** A pool's book as the listings show it: [price, token0 in whole tokens] per level, a side each. */
export interface ListedBook {
  bids: string[][];
  asks: string[][];
  networkStatus: AnswerFreshness;
}

/**
 * The book of the pool a pair id resolved to (resolvePairPool): its curve as `levels` levels a side
 * over `range` percent of its mid price (Pool.orderBook's book), at the indexed block. 400 (naming
 * `param`) when the pool is not indexed with those tokens or has an empty side; 503 when the
 * network does not serve at `nowMs`.
 */
export async function readPoolBook(
  reader: MarketReader,
  network: NetworkName,
  args: {
    base: string;
    target: string;
    pool: Address;
    param: string;
    levels: number;
    range: string;
    nowMs: number;
  },
): Promise<ListedBook> {
  const { base, target, param, levels, range, nowMs } = args;
  assertNetworkReady(reader, network, nowMs);
  const networkStatus = answerFreshness(reader, network, nowMs);
  const pool = reader.getPoolIndex(network).get(args.pool);
  if (pool === undefined || pool.token0 !== base || pool.token1 !== target) throw wrongPairId(param);
  const book = getPoolBook(pool, levels, rangePpmOf(range));
  if (book === undefined) throw wrongPairId(param);
  const d0 = (await tokenOf(reader, network, pool.token0)).decimals;
  const d1 = (await tokenOf(reader, network, pool.token1)).decimals;
  const side = (levels: typeof book.asks) =>
    buildBookSide(
      levels.map((level) => ({
        price: formatPoolPrice(level.price, d0, d1),
        amount0: level.amount0.toString(),
      })),
      d0,
    );
  return { bids: side(book.bids), asks: side(book.asks), networkStatus };
}
