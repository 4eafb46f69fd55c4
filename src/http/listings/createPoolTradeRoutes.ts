import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";
import type { Logger } from "pino";
import type { NetworkName } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import {
  type PoolTradesAnswer,
  readCmcTrades,
  readHistoricalTrades,
} from "../../views/answers/readPoolTrades.js";
import type { MarketReader } from "../../views/types.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { sendListStream } from "../sendListStream.js";
import type { ListingRoute } from "./listingRoute.js";

/**
 * Largest `limit` of historical_trades (its newest trades are held in memory).
 * @internal exported for tests, which hold schema/openapi.yaml's description of `limit` to it.
 */
export const MAX_TRADES_LIMIT = 10_000;
const STALL_MS = 60_000;

/** `name`'s value as a non-negative integer (absent: undefined), else a 400 that names it. */
function integerParam(value: unknown, name: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^(0|[1-9][0-9]*)$/.test(text) || Number(text) > max) {
    throw new BadRequestError(`${name} must be an integer from 0 to ${max}.`);
  }
  return Number(text);
}

// 10^11 seconds is the year 5138; 10^11 milliseconds is March 1973, before any EVM chain: a value
// at or above it can only be milliseconds.
const FIRST_MS = 100_000_000_000;

/**
 * `name`'s value as an instant in unix milliseconds (absent: undefined): unix seconds as the
 * standard defines them, or milliseconds where that is unambiguous (10^11 and above); else a 400.
 */
function instantParam(value: unknown, name: string): number | undefined {
  const number = integerParam(value, name);
  if (number === undefined) return undefined;
  return number >= FIRST_MS ? number : number * 1000;
}

/**
 * GET /cmc/:network/trades/:market_pair (CoinMarketCap's trades: the pool's trades of the last 24
 * hours, oldest first) and GET /coingecko/:network/historical_trades (CoinGecko's: buy and sell
 * arrays), streamed page by page at the block the answer started at.
 */
export function createPoolTradeRoutes(options: { reader: MarketReader; logger?: Logger }): ListingRoute[] {
  const { reader, logger } = options;
  const send = (reply: FastifyReply, answer: PoolTradesAnswer) => {
    reply.headers({
      ...JSON_HEADERS,
      ...freshnessHeaders(answer.networkStatus),
      "Cache-Control": "no-cache",
      ...answer.headers,
    });
    if (reply.request.method === "HEAD") {
      // The headers of the GET, and no list read for a body that is not sent.
      reply.hijack();
      reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
      reply.raw.end();
      return reply;
    }
    return sendListStream(reply, answer.body, { stallMs: STALL_MS, logger });
  };

  const cmc: ListingRoute = {
    path: "/cmc/:network/trades/:market_pair",
    operationId: "listingCoinMarketCapTrades",
    kept: false,
    handler: async (request, reply) => {
      const { network, market_pair } = request.params as { network: NetworkName; market_pair: string };
      return send(
        reply,
        await readCmcTrades(reader, network, { marketPair: market_pair, nowMs: Date.now() }),
      );
    },
  };

  const coingecko: ListingRoute = {
    path: "/coingecko/:network/historical_trades",
    operationId: "listingCoinGeckoHistoricalTrades",
    kept: false,
    handler: async (request, reply) => {
      const { network } = request.params as { network: NetworkName };
      const query = request.query as Record<string, string | undefined>;
      const startMs = instantParam(query.start_time, "start_time");
      const endMs = instantParam(query.end_time, "end_time");
      if (startMs !== undefined && endMs !== undefined && startMs > endMs) {
        throw new BadRequestError("start_time must not be later than end_time.");
      }
      const answer = await readHistoricalTrades(reader, network, {
        tickerId: query.ticker_id ?? "",
        limit: integerParam(query.limit, "limit", MAX_TRADES_LIMIT) ?? 0,
        startMs,
        endMs,
        type: query.type as "buy" | "sell" | undefined,
        nowMs: Date.now(),
      });
      return send(reply, answer);
    },
  };
  return [coingecko, cmc];
}
