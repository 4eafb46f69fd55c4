import { NETWORKS } from "../../domain/types.js";
import { MAX_SWAPS_LIMIT } from "./restLimits.js";

/*
 * JSON Schemas (2020-12) of the REST facade: query parameters and bodies exactly as
 * spec/market-data-api.md and spec/decisions.md fix them. Plain objects, so a framework can
 * validate routes with them and buildOpenApi can publish them; a titled schema is published once
 * under its title and referred to wherever it is nested. Patterns use [0-9] rather than \d so
 * that every regex dialect reads them alike.
 */

/** A base-10 integer string without sign or leading zeros. */
export const INTEGER_STRING_PATTERN = "^(0|[1-9][0-9]*)$";
/** A plain decimal string: no exponent, no sign, no leading zeros, no trailing zeros after the point. */
const PLAIN_DECIMAL_PATTERN = "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$";
/** amount_decimal: truncated to exactly 8 digits after the point. */
const AMOUNT_DECIMAL_PATTERN = "^(0|[1-9][0-9]*)\\.[0-9]{8}$";
/** A token address: lowercase 0x hex, or "" for the chain's native coin. */
const TOKEN_ADDRESS_PATTERN = "^(0x[0-9a-f]{40})?$";
/** A transaction hash: lowercase 0x hex. */
const TX_HASH_PATTERN = "^0x[0-9a-f]{64}$";
/** A UTC calendar date. */
const DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

// ---- query parameters ----

/** The `network` query parameter of every endpoint. */
const NETWORK_PARAM_SCHEMA = {
  type: "string",
  enum: NETWORKS,
  default: "bsc",
  description:
    "Blockchain network. Case-sensitive; any other value is a 400 that lists the accepted ones. " +
    "A network this server does not index is a 503.",
} as const;

/** The `:network` of the listing and DEX Screener paths. */
export const NETWORK_PATH_SCHEMA = {
  type: "object",
  properties: {
    network: {
      type: "string",
      enum: NETWORKS,
      description: "Blockchain network; any other value is a 400 that lists the accepted ones.",
    },
  },
  required: ["network"],
} as const;

/** sellToken / buyToken of /api/quote. */
const TOKEN_PARAM_SCHEMA = {
  type: "string",
  minLength: 1,
  description:
    "A symbol of the network's token list (case-insensitive; BNB, ETH, POL or MATIC mean the native coin) " +
    "or any ERC-20 contract address (0x + 40 hex, any case). An unknown symbol is a 400 that says to " +
    "retry with the contract address.",
  examples: ["BNB", "USDT", "0x55d398326f99059ff775485246999027b3197955"],
} as const;

/** `limit` of /api/swaps_24h (an extension of the contract). */
const LIMIT_PARAM_SCHEMA = {
  type: "integer",
  minimum: 1,
  maximum: MAX_SWAPS_LIMIT,
  description: `Extension: at most this many swaps (1 to ${MAX_SWAPS_LIMIT}). Without it the answer is the whole 24-hour window.`,
} as const;

/** `cursor` of /api/swaps_24h (an extension of the contract). */
const CURSOR_PARAM_SCHEMA = {
  type: "string",
  maxLength: 80,
  pattern: "^[A-Za-z0-9_-]+$",
  description:
    "Extension: continue after the previous page; pass the X-Next-Cursor header of a previous answer " +
    "(anything else is a 400).",
} as const;

/** Query of GET /api/quote. Unknown parameters are ignored, hence no additionalProperties: false. */
export const QUOTE_QUERY_SCHEMA = {
  type: "object",
  properties: { sellToken: TOKEN_PARAM_SCHEMA, buyToken: TOKEN_PARAM_SCHEMA, network: NETWORK_PARAM_SCHEMA },
  required: ["sellToken", "buyToken"],
} as const;

/** Query of GET /api/swaps_24h. */
export const SWAPS_QUERY_SCHEMA = {
  type: "object",
  properties: { network: NETWORK_PARAM_SCHEMA, limit: LIMIT_PARAM_SCHEMA, cursor: CURSOR_PARAM_SCHEMA },
} as const;

/** `from` and `to` of /api/swaps_export: a time as the GraphQL Timestamp takes it. */
const TIME_PARAM = {
  type: "string",
  minLength: 1,
  maxLength: 40,
  examples: ["1700000000", "2023-11-14T22:13:20Z"],
} as const;

/** Query of GET /api/swaps_export. */
export const EXPORT_QUERY_SCHEMA = {
  type: "object",
  properties: {
    network: NETWORK_PARAM_SCHEMA,
    from: {
      ...TIME_PARAM,
      description:
        "Start of the window, inclusive: unix seconds or an ISO-8601 date-time (anything else is a 400).",
    },
    to: {
      ...TIME_PARAM,
      description: "End of the window, exclusive, in the same forms (default: no end).",
    },
    atBlock: {
      type: "string",
      pattern: INTEGER_STRING_PATTERN,
      maxLength: 20,
      description:
        "Only swaps at or below this block (default, and at most: the block indexed when the request started, " +
        "which X-Indexed-Block names). The export is one indexed state however long it takes to read.",
    },
  },
  required: ["from"],
} as const;

/** Query of GET /api/trade_volume_usd_7d. */
export const VOLUMES_QUERY_SCHEMA = {
  type: "object",
  properties: { network: NETWORK_PARAM_SCHEMA },
} as const;

// ---- bodies ----

/** An object with exactly `properties`, all required, published under `title`. */
function closedObject<const P extends object>(title: string, properties: P) {
  return {
    title,
    type: "object",
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const INTEGER_STRING = { type: "string", pattern: INTEGER_STRING_PATTERN } as const;
const PLAIN_DECIMAL = { type: "string", pattern: PLAIN_DECIMAL_PATTERN } as const;

const TOKEN_PROPERTIES = {
  name: { type: "string", description: "Token name." },
  symbol: { type: "string", description: "Token symbol." },
  decimals: { ...INTEGER_STRING, description: "Number of decimals of the token, as an integer string." },
  address: {
    type: "string",
    pattern: TOKEN_ADDRESS_PATTERN,
    description: 'Token contract address, lowercase hex with 0x prefix; "" for the chain\'s native coin.',
  },
} as const;

/** Token metadata: sell_token / buy_token of a quote. */
const TOKEN_SCHEMA = closedObject("Token", TOKEN_PROPERTIES);

/**
 * Token with amount: sell_token / buy_token of a swap.
 * @internal exported for tests, which hold the row renderer to it.
 */
export const TOKEN_AMOUNT_SCHEMA = closedObject("TokenAmount", {
  ...TOKEN_PROPERTIES,
  amount: { ...INTEGER_STRING, description: "Amount in the token's smallest unit, as an integer string." },
  amount_decimal: {
    type: "string",
    pattern: AMOUNT_DECIMAL_PATTERN,
    description: "amount / 10^decimals, truncated toward zero, with exactly 8 digits after the point.",
  },
});

/** The `result` of a quote. */
const QUOTE_RESULT_SCHEMA = closedObject("QuoteResult", {
  network: { type: "string", enum: NETWORKS, description: "The selected blockchain network." },
  sell_token: TOKEN_SCHEMA,
  buy_token: TOKEN_SCHEMA,
  price: {
    ...PLAIN_DECIMAL,
    description:
      "Amount of buy_token received for exactly 1 whole sell_token along the best route, pool fees " +
      'included; exact, trailing zeros removed ("0" when it rounds down to nothing).',
  },
});

/** Success body of GET /api/quote. */
export const QUOTE_BODY_SCHEMA = closedObject("QuoteBody", { result: QUOTE_RESULT_SCHEMA });

/**
 * One transaction of GET /api/swaps_24h.
 * @internal exported for tests, which hold the row renderer to it.
 */
export const SWAP_SCHEMA = closedObject("Swap", {
  tx_hash: { type: "string", pattern: TX_HASH_PATTERN, description: "Transaction hash, lowercase hex." },
  block_number: { ...INTEGER_STRING, description: "Block of the transaction, integer string." },
  // What went in first and what came out last (a multi-hop transaction is one element).
  sell_token: TOKEN_AMOUNT_SCHEMA,
  buy_token: TOKEN_AMOUNT_SCHEMA,
  trade_volume_usd: {
    ...PLAIN_DECIMAL,
    description: 'USD value of the trade at its block, plain decimal ("0" when neither side is priced).',
  },
});

/** Success body of GET /api/swaps_24h: ascending by block, then position in the block. */
export const SWAPS_BODY_SCHEMA = {
  title: "SwapsBody",
  type: "array",
  items: SWAP_SCHEMA,
} as const;

/** One line of GET /api/swaps_export: a /api/swaps_24h element with what keys and dates it. */
export const SWAP_EXPORT_ROW_SCHEMA = closedObject("SwapExportRow", {
  tx_hash: SWAP_SCHEMA.properties.tx_hash,
  log_index: {
    type: "integer",
    minimum: 0,
    description:
      "Position of the swap's first pool Swap event in its block: with tx_hash, identifies the swap.",
  },
  block_number: SWAP_SCHEMA.properties.block_number,
  timestamp: { type: "integer", minimum: 0, description: "Block timestamp, unix seconds." },
  sender: {
    type: "string",
    pattern: "^0x[0-9a-f]{40}$",
    description: "The account that signed the transaction (not a router or pool).",
  },
  sell_token: TOKEN_AMOUNT_SCHEMA,
  buy_token: TOKEN_AMOUNT_SCHEMA,
  trade_volume_usd: SWAP_SCHEMA.properties.trade_volume_usd,
  tracked: { type: "boolean", description: "False when neither side could be priced in USD." },
  pools: {
    type: "array",
    items: { type: "string", pattern: "^0x[0-9a-f]{40}$" },
    description: "Pool addresses the swap went through, in order.",
  },
});

/** One UTC day of GET /api/trade_volume_usd_7d. */
const DAILY_VOLUME_SCHEMA = closedObject("DailyVolume", {
  date: { type: "string", pattern: DATE_PATTERN, format: "date", description: "UTC date, YYYY-MM-DD." },
  address_count: {
    ...INTEGER_STRING,
    description: "Distinct transaction senders that swapped that day, integer string.",
  },
  trade_volume_usd: { ...PLAIN_DECIMAL, description: "Exact sum of that day's trades in USD." },
});

/** Success body of GET /api/trade_volume_usd_7d: exactly 7 days, newest (today so far) first. */
export const VOLUMES_BODY_SCHEMA = {
  title: "DailyVolumesBody",
  type: "array",
  items: DAILY_VOLUME_SCHEMA,
  minItems: 7,
  maxItems: 7,
} as const;

/** Every error body: exactly {"error": "<one human-readable sentence>"}. */
export const ERROR_BODY_SCHEMA = closedObject("ErrorBody", {
  error: { type: "string", minLength: 1, description: "One human-readable sentence." },
});
