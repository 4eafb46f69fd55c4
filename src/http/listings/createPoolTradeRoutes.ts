import type { OutgoingHttpHeaders } from "node:http";
import type { FastifyReply } from "fastify";
import type { Logger } from "pino";
import type { NetworkName } from "../../domain/types.js";
import { BadRequestError, UnprocessableError } from "../../errors.js";
import { type PoolTrade, renderCmcTrade, renderCoingeckoTrade } from "../../views/answers/buildPoolTrade.js";
import { openPoolTrades } from "../../views/answers/readPoolTrades.js";
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

const DAY = 86_400;
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

/** JSON array pieces of `pages`, each trade rendered by `render` when `keep` holds. */
async function* arrayPieces(
  pages: AsyncIterable<PoolTrade[]>,
  render: (trade: PoolTrade) => string,
  keep: (trade: PoolTrade) => boolean = () => true,
): AsyncGenerator<string> {
  let first = true;
  for await (const page of pages) {
    const items = page.filter(keep).map(render);
    if (items.length === 0) continue;
    yield `${first ? "" : ","}${items.join(",")}`;
    first = false;
  }
}

/** The newest `limit` trades of `pages` (of `type` when given), oldest first. */
async function newest(pages: AsyncIterable<PoolTrade[]>, limit: number, type: string | undefined) {
  const kept: PoolTrade[] = [];
  for await (const page of pages) {
    for (const trade of page) if (type === undefined || trade.type === type) kept.push(trade);
    if (kept.length > limit) kept.splice(0, kept.length - limit);
  }
  return kept;
}

/** A generator that yields `first` (already read, so errors came before any byte), then the rest. */
async function* resumed(first: PoolTrade[], rest: AsyncGenerator<PoolTrade[]>): AsyncGenerator<PoolTrade[]> {
  yield first;
  yield* rest;
}

async function* encoded(pieces: AsyncIterable<string>): AsyncGenerator<Buffer> {
  for await (const piece of pieces) yield Buffer.from(piece);
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
  const send = (
    reply: FastifyReply,
    status: Parameters<typeof freshnessHeaders>[0],
    body: AsyncIterable<string>,
    extra: Record<string, string> = {},
  ) => {
    reply.headers({ ...JSON_HEADERS, ...freshnessHeaders(status), "Cache-Control": "no-cache", ...extra });
    if (reply.request.method === "HEAD") {
      // The headers of the GET, and no list read for a body that is not sent.
      reply.hijack();
      reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
      reply.raw.end();
      return reply;
    }
    return sendListStream(reply, encoded(body), { stallMs: STALL_MS, logger });
  };

  const cmc: DocumentedRoute = {
    path: "/cmc/:network/trades/:market_pair",
    params: PAIR_PATH_SCHEMA,
    doc: CMC_TRADES_DOC,
    handler: async (request, reply) => {
      const { network, market_pair } = request.params as { network: NetworkName; market_pair: string };
      const nowMs = Date.now();
      const source = await openPoolTrades(reader, network, {
        pairId: market_pair,
        param: "market_pair",
        nowMs,
      });
      const pages = source.pages(Math.floor(nowMs / 1000) - DAY, null);
      const first = await pages.next();
      const trades = resumed(first.done === true ? [] : first.value, pages);
      return send(reply, source.networkStatus, joined("[", arrayPieces(trades, renderCmcTrade), "]"));
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
      const limit = integerParam(query.limit, "limit", MAX_TRADES_LIMIT) ?? 0;
      const start = instantParam(query.start_time, "start_time");
      const end = instantParam(query.end_time, "end_time");
      const type = query.type;
      if (start !== undefined && end !== undefined && start > end) {
        throw new BadRequestError("start_time must not be later than end_time.");
      }
      const source = await openPoolTrades(reader, network, {
        pairId: query.ticker_id ?? "",
        param: "ticker_id",
        nowMs: Date.now(),
      });
      const { historyFrom } = source;
      // Whole seconds: block times are. start inclusive (rounded up), end inclusive (to the next second).
      const from = start === undefined ? historyFrom : Math.ceil(start / 1000);
      const to = end === undefined ? null : Math.floor(end / 1000) + 1;
      if (to !== null && to <= historyFrom) {
        throw new UnprocessableError(
          `end_time is before the stored history, which starts at ${historyFrom} (unix seconds, ${new Date(historyFrom * 1000).toISOString()}): no trade of that range is held.`,
        );
      }
      // A range that starts before the stored history is answered from its start, and says so.
      const marker = from < historyFrom ? { "X-History-From": String(historyFrom) } : {};
      const pages = source.pages(from, to);
      const first = await pages.next();
      const trades = resumed(first.done === true ? [] : first.value, pages);
      if (limit > 0) {
        const kept = await newest(trades, limit, type);
        const side = (t: string) =>
          kept
            .filter((trade) => trade.type === t)
            .map(renderCoingeckoTrade)
            .join(",");
        return send(
          reply,
          source.networkStatus,
          once(`{"buy":[${side("buy")}],"sell":[${side("sell")}]}`),
          marker,
        );
      }
      // Two passes, buys then sells, over the same pinned block.
      const pass = (side: "buy" | "sell") =>
        type !== undefined && type !== side
          ? once("")
          : arrayPieces(
              side === "buy" ? trades : source.pages(from, to),
              renderCoingeckoTrade,
              (t) => t.type === side,
            );
      return send(
        reply,
        source.networkStatus,
        concat('{"buy":[', pass("buy"), '],"sell":[', pass("sell"), "]}"),
        marker,
      );
    },
  };
  return [coingecko, cmc];
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function* joined(open: string, middle: AsyncIterable<string>, close: string): AsyncGenerator<string> {
  yield open;
  yield* middle;
  yield close;
}

async function* concat(...parts: (string | AsyncIterable<string>)[]): AsyncGenerator<string> {
  for (const part of parts) {
    if (typeof part === "string") yield part;
    else yield* part;
  }
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
