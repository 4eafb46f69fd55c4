/*
 * JSON Schemas (2020-12) of the order books in the listing formats: CoinGecko's /orderbook
 * (ticker_id, timestamp, bids, asks) and CoinMarketCap's orderbook/{market_pair} (timestamp,
 * bids, asks). Both show a level as [price, quantity] of decimals (numbers or strings in their
 * samples) and the timestamp as unix milliseconds (number or string); swapgraph sends strings for
 * the decimals and a number for the timestamp.
 */

const DECIMAL = {
  oneOf: [{ type: "number" }, { type: "string", pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" }],
} as const;
const UNIX_MS = { oneOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+$" }] } as const;
const LEVELS = {
  type: "array",
  // [price, amount]: two decimals. `items` rather than `prefixItems`, which the /docs page's
  // renderer (RapiDoc) cannot draw (it threw on the tuple and showed no schema).
  items: { type: "array", items: DECIMAL, minItems: 2, maxItems: 2 },
} as const;

/** CoinGecko /orderbook: the pair's bids and asks, [price in target, amount in base]. */
export const COINGECKO_ORDERBOOK_SCHEMA = {
  title: "CoinGeckoOrderBook",
  type: "object",
  properties: { ticker_id: { type: "string", minLength: 1 }, timestamp: UNIX_MS, bids: LEVELS, asks: LEVELS },
  required: ["ticker_id", "timestamp", "bids", "asks"],
} as const;

/** CoinMarketCap orderbook/{market_pair}: bids and asks, [price in quote, amount in base]. */
export const CMC_ORDERBOOK_SCHEMA = {
  title: "CmcOrderBook",
  type: "object",
  properties: { timestamp: UNIX_MS, bids: LEVELS, asks: LEVELS },
  required: ["timestamp", "bids", "asks"],
} as const;
