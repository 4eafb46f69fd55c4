import { LISTING_ENDPOINTS } from "../listings/createListingRoutes.js";
import {
  CMC_ORDERBOOK_QUERY_SCHEMA,
  COINGECKO_ORDERBOOK_QUERY_SCHEMA,
} from "../listings/createOrderBookRoutes.js";
import { HISTORICAL_TRADES_QUERY_SCHEMA } from "../listings/createPoolTradeRoutes.js";
import { CMC_ORDERBOOK_SCHEMA, COINGECKO_ORDERBOOK_SCHEMA } from "../listings/listingBookSchemas.js";
import { LISTING_PARAMS_SCHEMA } from "../listings/listingSchemas.js";
import { CMC_TRADES_SCHEMA, COINGECKO_TRADES_SCHEMA } from "../listings/listingTradeSchemas.js";

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * "/coingecko/:network/pairs" as OpenAPI writes it: "/coingecko/{network}/pairs".
 * @internal exported for tests, which call this step alone.
 */
export function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

const { description: NETWORK_DESCRIPTION, ...NETWORK_SCHEMA } = LISTING_PARAMS_SCHEMA.properties.network;
const NETWORK_PARAMETER = {
  name: "network",
  in: "path",
  required: true,
  description: NETWORK_DESCRIPTION,
  schema: NETWORK_SCHEMA,
};
const ERRORS = {
  "400": ref("responses", "BadRequest"),
  "405": ref("responses", "MethodNotAllowed"),
  "429": ref("responses", "TooManyRequests"),
  "503": ref("responses", "NotReady"),
  "500": ref("responses", "InternalError"),
};

/** The two trade lists: streamed at the answer's block, not kept. */
function tradePaths(): Record<string, Record<string, unknown>> {
  const streamed = (schema: object) => ({
    description: "The pool's trades, oldest first, streamed (chunked) at the block in X-Indexed-Block.",
    headers: {
      "X-Indexed-Block": ref("headers", "X-Indexed-Block"),
      "X-Data-Age": ref("headers", "X-Data-Age"),
    },
    content: { "application/json": { schema } },
  });
  const query = Object.entries(HISTORICAL_TRADES_QUERY_SCHEMA.properties).map(
    ([name, { description, ...schema }]) => ({
      name,
      in: "query",
      required: name === "ticker_id",
      description,
      schema,
    }),
  );
  const pair =
    "base_target: the contract addresses of an indexed pool's token0 and token1, or base_target_pool (the " +
    "pool's address added) where several indexed pools hold those tokens; base_target_pool is accepted for any pool";
  return {
    "/coingecko/{network}/historical_trades": {
      get: {
        operationId: "listingCoinGeckoHistoricalTrades",
        tags: ["Listings"],
        summary: "CoinGecko: historical trades",
        description:
          "CoinGecko's DEX /historical_trades: each pass of a swap through the pool (base = token0): " +
          "trade_id (block x 2^20 + log index x 16 + hop), price (token1 per token0, executed), base and " +
          "target volume, trade_timestamp (unix ms) and type (buy: token0 came out of the pool). Default: " +
          "the whole stored history (limit=0); limit 1-10,000 keeps the newest that many. X-History-From " +
          "(unix seconds) marks an answer whose start_time was before the stored history.",
        parameters: [NETWORK_PARAMETER, ...query],
        responses: {
          "200": streamed(COINGECKO_TRADES_SCHEMA),
          "422": ref("responses", "Unprocessable"),
          ...ERRORS,
        },
      },
    },
    "/cmc/{network}/trades/{market_pair}": {
      get: {
        operationId: "listingCoinMarketCapTrades",
        tags: ["Listings"],
        summary: "CoinMarketCap: trades",
        description:
          "CoinMarketCap's trades: the pool's trades of the last 24 hours, oldest first, with trade_id, " +
          "price, base_volume, quote_volume, timestamp (unix ms) and type, as /coingecko/{network}/historical_trades.",
        parameters: [
          NETWORK_PARAMETER,
          {
            name: "market_pair",
            in: "path",
            required: true,
            description: `The pair, ${pair}.`,
            schema: { type: "string" },
          },
        ],
        responses: { "200": streamed(CMC_TRADES_SCHEMA), ...ERRORS },
      },
    },
  };
}

/** Query parameters of an OpenAPI operation from a JSON Schema of the query. */
function queryParameters(schema: { properties: object; required?: readonly string[] }) {
  return Object.entries(schema.properties).map(([name, { description, ...rest }]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) === true,
    description,
    schema: rest,
  }));
}

/** The two order books: the pools' curves as levels, kept per indexed block and query. */
function bookPaths(): Record<string, Record<string, unknown>> {
  const kept = (schema: object) => ({
    description:
      "The pool's curve as bids and asks, [price in token1 per token0, amount of token0], at the block in X-Indexed-Block.",
    headers: {
      "X-Indexed-Block": ref("headers", "X-Indexed-Block"),
      "X-Data-Age": ref("headers", "X-Data-Age"),
      ETag: ref("headers", "ETag"),
      "Cache-Control": ref("headers", "Cache-Control"),
    },
    content: { "application/json": { schema } },
  });
  const about =
    "Levels at equal steps of the pool's state price out to range percent of its mid price on each side; " +
    "each level's amount is exactly what the pool trades while its price crosses that step (V2: the " +
    "constant-product formula with the fee; V3: across the initialized ticks, as QuoterV2), its price the " +
    "marginal price at the step's far edge, fee included (Pool.orderBook).";
  return {
    "/coingecko/{network}/orderbook": {
      get: {
        operationId: "listingCoinGeckoOrderBook",
        tags: ["Listings"],
        summary: "CoinGecko: orderbook",
        description: `CoinGecko's DEX /orderbook: ticker_id, timestamp (unix ms, when the book was made), bids and asks. ${about}`,
        parameters: [NETWORK_PARAMETER, ...queryParameters(COINGECKO_ORDERBOOK_QUERY_SCHEMA)],
        responses: {
          "200": kept(COINGECKO_ORDERBOOK_SCHEMA),
          "304": ref("responses", "NotModified"),
          ...ERRORS,
        },
      },
    },
    "/cmc/{network}/orderbook/{market_pair}": {
      get: {
        operationId: "listingCoinMarketCapOrderBook",
        tags: ["Listings"],
        summary: "CoinMarketCap: orderbook",
        description: `CoinMarketCap's orderbook: timestamp (unix ms), bids and asks. ${about}`,
        parameters: [
          NETWORK_PARAMETER,
          {
            name: "market_pair",
            in: "path",
            required: true,
            description:
              "The pair, base_target: the contract addresses of an indexed pool's token0 and token1, or " +
              "base_target_pool where several indexed pools hold those tokens (accepted for any pool).",
            schema: { type: "string" },
          },
          ...queryParameters(CMC_ORDERBOOK_QUERY_SCHEMA),
        ],
        responses: { "200": kept(CMC_ORDERBOOK_SCHEMA), "304": ref("responses", "NotModified"), ...ERRORS },
      },
    },
  };
}

/** The OpenAPI paths of the listing endpoints (CoinGecko's and CoinMarketCap's DEX formats). */
export function buildListingOpenApiPaths(): Record<string, Record<string, unknown>> {
  const parameters = [NETWORK_PARAMETER];
  const lists = Object.fromEntries(
    LISTING_ENDPOINTS.map((endpoint) => [
      openApiPathOf(endpoint.path),
      {
        get: {
          operationId: `listing${endpoint.summary.replace(/[^A-Za-z]/g, "")}`,
          tags: ["Listings"],
          summary: endpoint.summary,
          description:
            `${endpoint.description} Base is the pool's token0 and target (quote) its token1; a pair is one ` +
            "pool, named base_target by contract addresses (base_target_pool where several pools hold the same " +
            "tokens), with pool_id the pool's address. Kept per indexed block.",
          parameters,
          responses: {
            "200": {
              description: "The answer in the aggregator's format.",
              headers: {
                "X-Indexed-Block": ref("headers", "X-Indexed-Block"),
                "X-Data-Age": ref("headers", "X-Data-Age"),
                ETag: ref("headers", "ETag"),
                "Cache-Control": ref("headers", "Cache-Control"),
              },
              content: { "application/json": { schema: endpoint.bodySchema } },
            },
            "304": ref("responses", "NotModified"),
            ...ERRORS,
          },
        },
      },
    ]),
  );
  return { ...lists, ...bookPaths(), ...tradePaths() };
}
