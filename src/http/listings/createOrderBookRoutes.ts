import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { parsePairId } from "../../views/answers/parsePairId.js";
import { readPoolBook } from "../../views/answers/readPoolBook.js";
import { resolvePairPool } from "../../views/answers/resolvePairPool.js";
import type { MarketReader } from "../../views/types.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import type { ListingRoute } from "./listingRoute.js";

/**
 * Default `depth`: CoinGecko asks for at least 100 (50 a side); CoinMarketCap's example is 100 too.
 * @internal exported for tests, which hold schema/openapi.yaml's Depth and Range to these.
 */
export const DEFAULT_BOOK_DEPTH = 100;
/**
 * Largest `depth`, and what `depth=0` (the standards' "full depth") gives: 500 levels a side.
 * @internal exported for tests.
 */
export const MAX_BOOK_DEPTH = 1000;
/**
 * Default `range`: the +-2% of the mid price that CoinGecko's depth figures measure.
 * @internal exported for tests.
 */
export const DEFAULT_BOOK_RANGE = "2";

/** `depth` as the standards define it (orders in all, half a side; 0: full depth) in levels a side. */
function levelsOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_BOOK_DEPTH / 2;
  if (!/^(0|[1-9][0-9]{0,3})$/.test(value) || Number(value) > MAX_BOOK_DEPTH) {
    throw new BadRequestError(`depth must be an integer from 0 (full depth) to ${MAX_BOOK_DEPTH}.`);
  }
  const depth = Number(value);
  return depth === 0 ? MAX_BOOK_DEPTH / 2 : Math.max(1, Math.floor(depth / 2));
}

/** `range` (percent of the mid price a side spans), checked by Pool.orderBook's own rule. */
function rangeOf(value: string | undefined): string {
  if (value === undefined) return DEFAULT_BOOK_RANGE;
  if (!/^(0|[1-9][0-9]?)(\.[0-9]{1,4})?$/.test(value) || Number(value) <= 0) {
    throw new BadRequestError("range must be a percent above 0 and below 100, with at most 4 decimals.");
  }
  return value;
}

/**
 * GET /coingecko/:network/orderbook (CoinGecko's DEX orderbook: ticker_id, depth) and GET
 * /cmc/:network/orderbook/:market_pair (CoinMarketCap's: depth, level): the pool's curve as bids
 * and asks (Pool.orderBook), [price, base amount] pairs, kept per network, indexed block and query.
 */
export function createOrderBookRoutes(options: {
  /** What the pair id is resolved with and the book read from. */
  reader: MarketReader;
  answer: BlockAnswerer;
}): ListingRoute[] {
  const { reader, answer } = options;

  /** The book of `pairId` as [[price, amount], ...] sides, at the indexed block. */
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    args: {
      network: NetworkName;
      pairId: string;
      param: string;
      depth: string | undefined;
      range: string | undefined;
      top?: boolean;
    },
    shape: (book: { bids: string[][]; asks: string[][] }, timestamp: number, pairId: string) => unknown,
  ) {
    const { network, pairId, param } = args;
    // The form is checked before anything is read; the pool of a two-part id is looked up.
    parsePairId(pairId, param);
    const levels = args.top === true ? 1 : levelsOf(args.depth);
    const range = rangeOf(args.range);
    const nowMs = Date.now();
    const { base, target, pool } = resolvePairPool(reader, network, pairId, param, nowMs);
    const asked = pairId.toLowerCase();
    return answer.answer(request, reply, {
      network,
      key: `orderbook\n${param}\n${network}\n${asked}\n${levels}\n${range}\n${args.top === true}`,
      nowMs,
      render: async () => {
        const { bids, asks, networkStatus } = await readPoolBook(reader, network, {
          base,
          target,
          pool,
          param,
          levels,
          range,
          nowMs: nowMs,
        });
        return { value: shape({ bids, asks }, nowMs, asked), networkStatus };
      },
    });
  }

  const coingecko: ListingRoute = {
    path: "/coingecko/:network/orderbook",
    operationId: "listingCoinGeckoOrderBook",
    kept: true,
    handler: async (request, reply) => {
      const { network } = request.params as { network: NetworkName };
      const query = request.query as Record<string, string | undefined>;
      return render(
        request,
        reply,
        {
          network,
          pairId: query.ticker_id ?? "",
          param: "ticker_id",
          depth: query.depth,
          range: query.range,
        },
        (book, timestamp, tickerId) => ({ ticker_id: tickerId, timestamp, bids: book.bids, asks: book.asks }),
      );
    },
  };

  const cmc: ListingRoute = {
    path: "/cmc/:network/orderbook/:market_pair",
    operationId: "listingCoinMarketCapOrderBook",
    kept: true,
    handler: async (request, reply) => {
      const { network, market_pair } = request.params as { network: NetworkName; market_pair: string };
      const query = request.query as Record<string, string | undefined>;
      return render(
        request,
        reply,
        {
          network,
          pairId: market_pair,
          param: "market_pair",
          depth: query.depth,
          range: query.range,
          top: query.level === "1",
        },
        (book, timestamp) => ({ timestamp, bids: book.bids, asks: book.asks }),
      );
    },
  };
  return [coingecko, cmc];
}
