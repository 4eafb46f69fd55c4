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
import { NETWORK_PATH_SCHEMA } from "../api/restSchemas.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import type { DocumentedRoute, RouteDoc } from "../routeDoc.js";
import { sendListStream } from "../sendListStream.js";
import {
  CMC_TRADES_SCHEMA,
  COINGECKO_TRADES_SCHEMA,
  PAIR_ID_PARAM,
  PAIR_PATH_SCHEMA,
} from "./listingSchemas.js";

/** Largest `limit` of historical_trades (its newest trades are held in memory). */
const MAX_TRADES_LIMIT = 10_000;
const STALL_MS = 60_000;
const STREAMED = "The pool's trades, oldest first, streamed (chunked) at the block in X-Indexed-Block.";

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

/** What /openapi.json says of CoinMarketCap's trades. */
const CMC_TRADES_DOC: RouteDoc = {
  operationId: "listingCoinMarketCapTrades",
  tag: "Listings",
  summary: "CoinMarketCap: trades",
  description:
    "CoinMarketCap's trades: the pool's trades of the last 24 hours, oldest first, with trade_id, " +
    "price, base_volume, quote_volume, timestamp (unix ms) and type, as /coingecko/{network}/historical_trades.",
  ok: { description: STREAMED, schema: CMC_TRADES_SCHEMA },
};

/** What /openapi.json says of CoinGecko's historical_trades. */
const HISTORICAL_TRADES_DOC: RouteDoc = {
  operationId: "listingCoinGeckoHistoricalTrades",
  tag: "Listings",
  summary: "CoinGecko: historical trades",
  description:
    "CoinGecko's DEX /historical_trades: each pass of a swap through the pool (base = token0): " +
    "trade_id (block x 2^20 + log index x 16 + hop), price (token1 per token0, executed), base and " +
    "target volume, trade_timestamp (unix ms) and type (buy: token0 came out of the pool). Default: " +
    "the whole stored history (limit=0); limit 1-10,000 keeps the newest that many. X-History-From " +
    "(unix seconds) marks an answer whose start_time was before the stored history.",
  ok: { description: STREAMED, schema: COINGECKO_TRADES_SCHEMA },
  errors: {
    "422": {
      description: "A range that ends before the stored history: no trade of it is held.",
      example:
        "end_time is before the stored history, which starts at 1795046400 (unix seconds, " +
        "2026-11-19T00:00:00.000Z): no trade of that range is held.",
    },
  },
};

/**
 * GET /cmc/:network/trades/:market_pair (CoinMarketCap's trades: the pool's trades of the last 24
 * hours, oldest first) and GET /coingecko/:network/historical_trades (CoinGecko's: buy and sell
 * arrays), streamed page by page at the block the answer started at.
 */
export function createPoolTradeRoutes(options: { reader: MarketReader; logger?: Logger }): DocumentedRoute[] {
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

  const cmc: DocumentedRoute = {
    path: "/cmc/:network/trades/:market_pair",
    params: PAIR_PATH_SCHEMA,
    doc: CMC_TRADES_DOC,
    handler: async (request, reply) => {
      const { network, market_pair } = request.params as { network: NetworkName; market_pair: string };
      return send(
        reply,
        await readCmcTrades(reader, network, { marketPair: market_pair, nowMs: Date.now() }),
      );
    },
  };

  const coingecko: DocumentedRoute = {
    path: "/coingecko/:network/historical_trades",
    params: NETWORK_PATH_SCHEMA,
    querystring: HISTORICAL_TRADES_QUERY_SCHEMA,
    doc: HISTORICAL_TRADES_DOC,
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

/** Query of GET /coingecko/:network/historical_trades (integers are checked by the handler). */
const HISTORICAL_TRADES_QUERY_SCHEMA = {
  type: "object",
  properties: {
    ticker_id: PAIR_ID_PARAM,
    type: { type: "string", enum: ["buy", "sell"], description: "Only buys or only sells." },
    limit: {
      type: "string",
      description: `0 (default): every stored trade of the range (without start_time: the whole stored history), streamed; 1 to ${MAX_TRADES_LIMIT}: the newest that many.`,
    },
    start_time: {
      type: "string",
      description:
        "Unix seconds, inclusive (milliseconds accepted from 10^11 up, where they cannot be seconds); default: the start of the stored history. A start before it is answered from it, with X-History-From.",
    },
    end_time: {
      type: "string",
      description:
        "Unix seconds (or milliseconds, as start_time), inclusive; default: none. A range that ends before the stored history is a 422.",
    },
  },
  required: ["ticker_id"],
} as const;
