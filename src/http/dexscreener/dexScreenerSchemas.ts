import { MAX_EVENT_BLOCKS } from "../../views/answers/readDexScreener.js";
import { INTEGER_STRING_PATTERN } from "../api/restSchemas.js";

/*
 * JSON Schemas (2020-12) of the DEX Screener adapter, written from the published "DEX Screener
 * Adapter Specs" (v1.1, Dec 2023): the request parameters the routes validate, and the answers
 * as the spec defines them (numbers for amounts and prices may be JSON numbers or strings;
 * optional fields may be absent; nothing else may appear).
 */

/** An amount, price or reserve: a JSON number, or a plain decimal string. */
const NUMBER_OR_DECIMAL = {
  anyOf: [{ type: "number" }, { type: "string", pattern: "^[0-9]+(\\.[0-9]+)?$" }],
} as const;

/** A positive price (the indexer halts on priceNative=0). */
const POSITIVE_NUMBER_OR_DECIMAL = {
  anyOf: [
    { type: "number", exclusiveMinimum: 0 },
    { type: "string", pattern: "^[0-9]+(\\.[0-9]+)?$", not: { pattern: "^0+(\\.0+)?$" } },
  ],
} as const;

// Boolean schemas (true/false) in object form: documentation renderers read these.
const ANY = {} as const;
const ABSENT = { not: {} } as const;

const METADATA = { type: "object", additionalProperties: { type: "string" } } as const;

/** Block: a number and unix seconds (not milliseconds). */
const DEX_SCREENER_BLOCK_SCHEMA = {
  type: "object",
  required: ["blockNumber", "blockTimestamp"],
  additionalProperties: false,
  properties: {
    blockNumber: { type: "integer", minimum: 0 },
    blockTimestamp: { type: "integer", minimum: 0, maximum: 99_999_999_999 },
    metadata: METADATA,
  },
} as const;

const RESERVES = {
  type: "object",
  required: ["asset0", "asset1"],
  additionalProperties: false,
  properties: { asset0: NUMBER_OR_DECIMAL, asset1: NUMBER_OR_DECIMAL },
} as const;

const EVENT_HEAD = {
  block: DEX_SCREENER_BLOCK_SCHEMA,
  txnId: { type: "string", minLength: 1 },
  txnIndex: { type: "integer", minimum: 0 },
  eventIndex: { type: "integer", minimum: 0 },
  maker: { type: "string", minLength: 1 },
  pairId: { type: "string", minLength: 1 },
  reserves: RESERVES,
  metadata: METADATA,
} as const;
const EVENT_REQUIRED = ["block", "eventType", "txnId", "txnIndex", "eventIndex", "maker", "pairId"] as const;

/** A swap: either asset0In + asset1Out or asset1In + asset0Out, never more. */
const SWAP_EVENT = {
  type: "object",
  required: [...EVENT_REQUIRED, "priceNative"],
  additionalProperties: false,
  properties: {
    ...EVENT_HEAD,
    eventType: { const: "swap" },
    asset0In: NUMBER_OR_DECIMAL,
    asset1In: NUMBER_OR_DECIMAL,
    asset0Out: NUMBER_OR_DECIMAL,
    asset1Out: NUMBER_OR_DECIMAL,
    priceNative: POSITIVE_NUMBER_OR_DECIMAL,
  },
  // ABSENT: the property must not be there.
  oneOf: [
    {
      required: ["asset0In", "asset1Out"],
      properties: { asset0In: ANY, asset1Out: ANY, asset1In: ABSENT, asset0Out: ABSENT },
    },
    {
      required: ["asset1In", "asset0Out"],
      properties: { asset1In: ANY, asset0Out: ANY, asset0In: ABSENT, asset1Out: ABSENT },
    },
  ],
} as const;

const JOIN_EXIT_EVENT = {
  type: "object",
  required: [...EVENT_REQUIRED, "amount0", "amount1"],
  additionalProperties: false,
  properties: {
    ...EVENT_HEAD,
    eventType: { enum: ["join", "exit"] },
    amount0: NUMBER_OR_DECIMAL,
    amount1: NUMBER_OR_DECIMAL,
  },
} as const;

/** GET latest-block. */
export const LATEST_BLOCK_RESPONSE_SCHEMA = {
  type: "object",
  required: ["block"],
  additionalProperties: false,
  properties: { block: DEX_SCREENER_BLOCK_SCHEMA },
} as const;

/** GET asset. */
export const ASSET_RESPONSE_SCHEMA = {
  type: "object",
  required: ["asset"],
  additionalProperties: false,
  properties: {
    asset: {
      type: "object",
      required: ["id", "name", "symbol"],
      additionalProperties: false,
      properties: {
        id: { type: "string", minLength: 1 },
        name: { type: "string", minLength: 1 },
        symbol: { type: "string", minLength: 1 },
        totalSupply: NUMBER_OR_DECIMAL,
        circulatingSupply: NUMBER_OR_DECIMAL,
        coinGeckoId: { type: "string" },
        coinMarketCapId: { type: "string" },
        metadata: METADATA,
      },
    },
  },
} as const;

/** GET pair. */
export const PAIR_RESPONSE_SCHEMA = {
  type: "object",
  required: ["pair"],
  additionalProperties: false,
  properties: {
    pair: {
      type: "object",
      required: ["id", "dexKey", "asset0Id", "asset1Id"],
      additionalProperties: false,
      properties: {
        id: { type: "string", minLength: 1 },
        dexKey: { type: "string", minLength: 1 },
        asset0Id: { type: "string", minLength: 1 },
        asset1Id: { type: "string", minLength: 1 },
        createdAtBlockNumber: { type: "integer", minimum: 0 },
        createdAtBlockTimestamp: { type: "integer", minimum: 0 },
        createdAtTxnId: { type: "string" },
        creator: { type: "string" },
        feeBps: { type: "number", minimum: 0, exclusiveMaximum: 10_000 },
        pool: {
          type: "object",
          required: ["id", "name", "assetIds", "pairIds"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            assetIds: { type: "array", items: { type: "string" } },
            pairIds: { type: "array", items: { type: "string" } },
            metadata: METADATA,
          },
        },
        metadata: METADATA,
      },
    },
  },
} as const;

/** GET events. */
export const EVENTS_RESPONSE_SCHEMA = {
  type: "object",
  required: ["events"],
  additionalProperties: false,
  properties: { events: { type: "array", items: { oneOf: [SWAP_EVENT, JOIN_EXIT_EVENT] } } },
} as const;

// ---- request parameters ----

const BLOCK_PARAM = {
  type: "string",
  maxLength: 16,
  pattern: INTEGER_STRING_PATTERN,
} as const;

/** `id` of asset and pair: a contract address, any case. */
export const ID_QUERY_SCHEMA = {
  type: "object",
  required: ["id"],
  properties: {
    id: {
      type: "string",
      pattern: "^0x[0-9a-fA-F]{40}$",
      description: "The contract address (0x + 40 hex digits, any case; answers carry the checksummed form).",
    },
  },
} as const;

/** fromBlock and toBlock of events. */
export const EVENTS_QUERY_SCHEMA = {
  type: "object",
  required: ["fromBlock", "toBlock"],
  properties: {
    fromBlock: { ...BLOCK_PARAM, description: "First block of the range (inclusive)." },
    toBlock: {
      ...BLOCK_PARAM,
      description: `Last block of the range (inclusive): at most latest-block, and at most ${MAX_EVENT_BLOCKS.toLocaleString("en-US")} blocks after fromBlock.`,
    },
  },
} as const;

/** latest-block takes no parameter. */
export const NO_QUERY_SCHEMA = { type: "object", properties: {} } as const;

/** The spec's own example answers (Adapter Specs v1.1): /openapi.json shows them; tests validate them. */
export const SPEC_EXAMPLES = {
  latestBlock: { block: { blockNumber: 100, blockTimestamp: 1698126147 } },
  asset: {
    asset: {
      id: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
      name: "Wrapped Ether",
      symbol: "WETH",
      totalSupply: 10000000,
      circulatingSupply: 900000,
      coinGeckoId: "ether",
      coinMarketCapId: "ether",
    },
  },
  pair: {
    pair: {
      id: "0x11b815efB8f581194ae79006d24E0d814B7697F6",
      dexKey: "uniswap",
      asset0Id: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
      asset1Id: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      createdAtBlockNumber: 100,
      createdAtBlockTimestamp: 1698126147,
      createdAtTxnId: "0xe9e91f1ee4b56c0df2e9f06c2b8c27c6076195a88a7b8537ba8313d80e6f124e",
      feeBps: 100,
    },
  },
  events: {
    events: [
      {
        block: { blockNumber: 10, blockTimestamp: 1673319600 },
        eventType: "swap",
        txnId: "0xe9e91f1ee4b56c0df2e9f06c2b8c27c6076195a88a7b8537ba8313d80e6f124e",
        txnIndex: 4,
        eventIndex: 3,
        maker: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        pairId: "0x123",
        asset0In: 10000,
        asset1Out: 20000,
        priceNative: 2,
        reserves: { asset0: 500, asset1: 1000 },
      },
      {
        block: { blockNumber: 10, blockTimestamp: 1673319600 },
        eventType: "join",
        txnId: "0xea1093d492a1dcb1bef708f771a99a96ff05dcab81ca76c31940300177fcf49f",
        txnIndex: 0,
        eventIndex: 0,
        maker: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        pairId: "0x456",
        amount0: 10,
        amount1: 5,
        reserves: { asset0: 100, asset1: 50 },
      },
      {
        block: { blockNumber: 11, blockTimestamp: 1673406000 },
        eventType: "swap",
        txnId: "0xea1093d492a1dcb1bef708f771a99a96ff05dcab81ca76c31940300177fcf49f",
        txnIndex: 1,
        eventIndex: 20,
        maker: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
        pairId: "0x456",
        asset0In: 0.0123456789,
        asset1Out: 0.000123456789,
        priceNative: 0.00000012345,
        reserves: { asset0: 0.0001, asset1: 0.000000000000001 },
      },
    ],
  },
} as const;
