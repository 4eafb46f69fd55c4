/*
 * JSON Schemas (2020-12) of a pool's trades in the listing formats: CoinGecko's
 * /historical_trades (buy and sell arrays) and CoinMarketCap's trades/{market_pair}. Their
 * samples show ids and timestamps as numbers or strings; swapgraph sends numbers.
 */

const DECIMAL = {
  oneOf: [{ type: "number" }, { type: "string", pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" }],
} as const;
const ID = { oneOf: [{ type: "integer" }, { type: "string", minLength: 1 }] } as const;
const UNIX_MS = { oneOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+$" }] } as const;
const TYPE = { type: "string", enum: ["buy", "sell"] } as const;

const COINGECKO_TRADE = {
  type: "object",
  properties: {
    trade_id: ID,
    price: DECIMAL,
    base_volume: DECIMAL,
    target_volume: DECIMAL,
    trade_timestamp: UNIX_MS,
    type: TYPE,
  },
  required: ["trade_id", "price", "base_volume", "target_volume", "trade_timestamp", "type"],
} as const;

/** CoinGecko /historical_trades: a pair's completed trades, split into buys and sells. */
export const COINGECKO_TRADES_SCHEMA = {
  title: "CoinGeckoHistoricalTrades",
  type: "object",
  properties: {
    buy: {
      type: "array",
      items: { ...COINGECKO_TRADE, properties: { ...COINGECKO_TRADE.properties, type: { const: "buy" } } },
    },
    sell: {
      type: "array",
      items: { ...COINGECKO_TRADE, properties: { ...COINGECKO_TRADE.properties, type: { const: "sell" } } },
    },
  },
  required: ["buy", "sell"],
} as const;

/** CoinMarketCap trades/{market_pair}: a pair's recent trades. */
export const CMC_TRADES_SCHEMA = {
  title: "CmcTrades",
  type: "array",
  items: {
    type: "object",
    properties: {
      trade_id: ID,
      price: DECIMAL,
      base_volume: DECIMAL,
      quote_volume: DECIMAL,
      timestamp: UNIX_MS,
      type: TYPE,
    },
    required: ["trade_id", "price", "base_volume", "quote_volume", "timestamp", "type"],
  },
} as const;
