import { NETWORK_PATH_SCHEMA } from "../api/restSchemas.js";

/*
 * JSON Schemas (2020-12) of the listing endpoints, written from the aggregators' published
 * formats: CoinGecko's exchange API standard (its DEX endpoints /pairs, /tickers, /orderbook and
 * /historical_trades) and CoinMarketCap's exchange API standard (summary, assets, ticker,
 * orderbook, trades). Both type prices and volumes as "decimal" and show them, and ids and
 * timestamps, as JSON numbers or strings in their samples; swapgraph sends exact decimal strings,
 * and numbers for ids and timestamps. Fields the formats mark mandatory are required; the
 * recommended ones swapgraph can give are listed, and other fields are allowed, as an aggregator
 * reads the fields it knows.
 */

/** A "decimal" of the formats: a JSON number, or a string holding a plain decimal. */
const DECIMAL = {
  oneOf: [{ type: "number" }, { type: "string", pattern: "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$" }],
} as const;
/** A decimal as swapgraph sends it: a plain decimal string, exact, no trailing zeros. */
const EXACT_DECIMAL = { type: "string", pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$" } as const;
const ADDRESS = { type: "string", pattern: "^0x[0-9a-f]{40}$" } as const;
/** base_target (contract addresses of token0 and token1), or base_target_pool where pools share the tokens. */
const TICKER_ID_PATTERN = "^0x[0-9a-f]{40}_0x[0-9a-f]{40}(_0x[0-9a-f]{40})?$";
const ID = { oneOf: [{ type: "integer" }, { type: "string", minLength: 1 }] } as const;
const UNIX_MS = { oneOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+$" }] } as const;

/** A pair as the requests name it: ticker_id (CoinGecko) or market_pair (CoinMarketCap). */
export const PAIR_ID_PARAM = {
  type: "string",
  description:
    "The pair: base_target (the contract addresses of an indexed pool's token0 and token1), or " +
    "base_target_pool (the pool's address added) where several indexed pools hold those tokens " +
    "(the listings name each pair); base_target_pool is accepted for any pool.",
} as const;

/** Path parameters of CoinMarketCap's paths that name a pair: the network and the market_pair. */
export const PAIR_PATH_SCHEMA = {
  ...NETWORK_PATH_SCHEMA,
  properties: { ...NETWORK_PATH_SCHEMA.properties, market_pair: PAIR_ID_PARAM },
} as const;

/** CoinGecko /pairs: the trading pairs (one per pool) of the DEX. */
export const COINGECKO_PAIRS_SCHEMA = {
  title: "CoinGeckoPairs",
  type: "array",
  items: {
    type: "object",
    properties: {
      ticker_id: { type: "string", minLength: 1 },
      base: { type: "string", minLength: 1 },
      target: { type: "string", minLength: 1 },
      pool_id: { type: "string", minLength: 1 },
    },
    required: ["ticker_id", "base", "target", "pool_id"],
  },
} as const;

/** CoinGecko /tickers: 24-hour pricing and volume of each pair. */
export const COINGECKO_TICKERS_SCHEMA = {
  title: "CoinGeckoTickers",
  type: "array",
  items: {
    type: "object",
    properties: {
      ticker_id: { type: "string", minLength: 1 },
      base_currency: { type: "string", minLength: 1 },
      target_currency: { type: "string", minLength: 1 },
      pool_id: { type: "string", minLength: 1 },
      last_price: DECIMAL,
      base_volume: DECIMAL,
      target_volume: DECIMAL,
      liquidity_in_usd: DECIMAL,
      bid: DECIMAL,
      ask: DECIMAL,
      high: DECIMAL,
      low: DECIMAL,
    },
    required: [
      "ticker_id",
      "base_currency",
      "target_currency",
      "pool_id",
      "last_price",
      "base_volume",
      "target_volume",
      "liquidity_in_usd",
    ],
  },
} as const;

/** CoinMarketCap summary: an overview of every market pair. */
export const CMC_SUMMARY_SCHEMA = {
  title: "CmcSummary",
  type: "array",
  items: {
    type: "object",
    properties: {
      trading_pairs: { type: "string", minLength: 1 },
      base_currency: { type: "string" },
      quote_currency: { type: "string" },
      last_price: DECIMAL,
      lowest_ask: DECIMAL,
      highest_bid: DECIMAL,
      base_volume: DECIMAL,
      quote_volume: DECIMAL,
      price_change_percent_24h: DECIMAL,
      highest_price_24h: DECIMAL,
      lowest_price_24h: DECIMAL,
    },
    required: ["trading_pairs", "last_price", "base_volume", "quote_volume"],
  },
} as const;

/** CoinMarketCap assets: each asset traded, keyed by its id (for a DEX its contract address). */
export const CMC_ASSETS_SCHEMA = {
  title: "CmcAssets",
  type: "object",
  additionalProperties: {
    type: "object",
    properties: {
      name: { type: "string" },
      symbol: { type: "string" },
      id: { type: "string" },
      unified_cryptoasset_id: { oneOf: [{ type: "integer" }, { type: "string" }] },
      maker_fee: DECIMAL,
      taker_fee: DECIMAL,
    },
    required: ["name"],
  },
} as const;

/** CoinMarketCap ticker: 24-hour figures of each market pair, keyed by the pair. */
export const CMC_TICKER_SCHEMA = {
  title: "CmcTicker",
  type: "object",
  additionalProperties: {
    type: "object",
    properties: {
      base_id: { type: "string" },
      base_name: { type: "string" },
      base_symbol: { type: "string" },
      quote_id: { type: "string" },
      quote_name: { type: "string" },
      quote_symbol: { type: "string" },
      last_price: DECIMAL,
      base_volume: DECIMAL,
      quote_volume: DECIMAL,
      isFrozen: {
        oneOf: [
          { type: "integer", enum: [0, 1] },
          { type: "string", enum: ["0", "1"] },
        ],
      },
    },
    required: ["base_id", "quote_id", "last_price", "base_volume", "quote_volume"],
  },
} as const;

/**
 * What swapgraph itself sends, beyond the formats: exact strings and addresses everywhere.
 * @internal exported for tests, which check the bodies against it.
 */
export const SWAPGRAPH_TICKER_SCHEMA = {
  type: "object",
  properties: {
    ticker_id: { type: "string", pattern: TICKER_ID_PATTERN },
    base_currency: ADDRESS,
    target_currency: ADDRESS,
    pool_id: ADDRESS,
    last_price: EXACT_DECIMAL,
    base_volume: EXACT_DECIMAL,
    target_volume: EXACT_DECIMAL,
    liquidity_in_usd: EXACT_DECIMAL,
    high: EXACT_DECIMAL,
    low: EXACT_DECIMAL,
    bid: EXACT_DECIMAL,
    ask: EXACT_DECIMAL,
  },
  required: COINGECKO_TICKERS_SCHEMA.items.required,
  additionalProperties: false,
} as const;

// ---- a pool's trades: CoinGecko's /historical_trades (buy and sell arrays), CoinMarketCap's trades ----

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

// ---- order books: [price, quantity] levels of decimals ----

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
