import { LISTING_ENDPOINTS } from "./createListingRoutes.js";
import { HISTORICAL_TRADES_QUERY_SCHEMA } from "./createPoolTradeRoutes.js";
import { LISTING_PARAMS_SCHEMA } from "./listingSchemas.js";
import { CMC_TRADES_SCHEMA, COINGECKO_TRADES_SCHEMA } from "./listingTradeSchemas.js";

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** "/coingecko/:network/pairs" as OpenAPI writes it: "/coingecko/{network}/pairs". */
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
  const pair = "base_target_pool: the contract addresses of an indexed pool's token0, token1 and the pool";
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
          "the last 24 hours; limit 1-10,000 keeps the newest that many.",
        parameters: [NETWORK_PARAMETER, ...query],
        responses: { "200": streamed(COINGECKO_TRADES_SCHEMA), ...ERRORS },
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
            "pool, named base_target_pool by contract addresses. Kept per indexed block and hour.",
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
  return { ...lists, ...tradePaths() };
}
