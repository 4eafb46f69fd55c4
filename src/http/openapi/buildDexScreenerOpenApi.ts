import { MAX_EVENT_BLOCKS } from "../../views/answers/readDexScreener.js";
import {
  ASSET_RESPONSE_SCHEMA,
  EVENTS_QUERY_SCHEMA,
  EVENTS_RESPONSE_SCHEMA,
  ID_QUERY_SCHEMA,
  LATEST_BLOCK_RESPONSE_SCHEMA,
  PAIR_RESPONSE_SCHEMA,
} from "../dexscreener/dexScreenerSchemas.js";

// The spec's own example answers (DEX Screener Adapter Specs v1.1): the document shows them, and
// a test validates each against its schema.
/** @internal exported for tests, which run the examples. */
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

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const NETWORK_PARAMETER = {
  name: "network",
  in: "path",
  required: true,
  description: "The network whose DEXes the adapter serves: bsc, eth or polygon (a 400 otherwise).",
  schema: { type: "string", enum: ["bsc", "eth", "polygon"] },
};

interface Query {
  properties: Record<string, { description?: string }>;
  required?: readonly string[];
}

function queryParameters(query: Query): object[] {
  return Object.entries(query.properties).map(([name, { description, ...schema }]) => ({
    name,
    in: "query",
    required: query.required?.includes(name) ?? false,
    description: description ?? name,
    schema,
  }));
}

function operation(options: {
  operationId: string;
  summary: string;
  description: string;
  query?: Query;
  schema: object;
  example: unknown;
  notFound?: string;
}) {
  return {
    get: {
      operationId: options.operationId,
      tags: ["DEX Screener adapter"],
      summary: options.summary,
      description: options.description,
      parameters: [NETWORK_PARAMETER, ...(options.query === undefined ? [] : queryParameters(options.query))],
      responses: {
        "200": {
          description: "The answer, in the spec's format.",
          headers: {
            "X-Indexed-Block": ref("headers", "X-Indexed-Block"),
            "X-Data-Age": ref("headers", "X-Data-Age"),
            ETag: ref("headers", "ETag"),
            "Cache-Control": ref("headers", "Cache-Control"),
          },
          content: { "application/json": { schema: options.schema, example: options.example } },
        },
        "304": ref("responses", "NotModified"),
        "400": ref("responses", "BadRequest"),
        ...(options.notFound === undefined
          ? {}
          : {
              "404": {
                description: options.notFound,
                content: { "application/json": { schema: ref("schemas", "ErrorBody") } },
              },
            }),
        "405": ref("responses", "MethodNotAllowed"),
        "429": ref("responses", "TooManyRequests"),
        "503": ref("responses", "NotReady"),
        "500": ref("responses", "InternalError"),
      },
    },
  };
}

/** The OpenAPI paths of the DEX Screener adapter (spread into buildOpenApi's paths). */
export function buildDexScreenerPaths(): Record<string, Record<string, unknown>> {
  return {
    "/dexscreener/{network}/latest-block": operation({
      operationId: "dexScreenerLatestBlock",
      summary: "DEX Screener adapter: the latest block whose events are all served",
      description:
        "The network's indexed block (number and unix seconds): every event of every block up to it is " +
        "stored and served by events, in the same commit; a block above it is never announced.",
      schema: LATEST_BLOCK_RESPONSE_SCHEMA,
      example: SPEC_EXAMPLES.latestBlock,
    }),
    "/dexscreener/{network}/asset": operation({
      operationId: "dexScreenerAsset",
      summary: "DEX Screener adapter: a token of an indexed pool",
      description:
        "The token's checksummed address, name and symbol as the token list or its contract gives them, and " +
        "its totalSupply() at the indexed block, decimalized (left out when the token or the RPC does not " +
        "answer). circulatingSupply is left out: no chain figure states it.",
      query: ID_QUERY_SCHEMA,
      schema: ASSET_RESPONSE_SCHEMA,
      example: SPEC_EXAMPLES.asset,
      notFound: "No indexed pool holds this token.",
    }),
    "/dexscreener/{network}/pair": operation({
      operationId: "dexScreenerPair",
      summary: "DEX Screener adapter: an indexed pool",
      description:
        "The pool's checksummed address, its DEX's name as dexKey, token0 and token1 as asset0Id and " +
        "asset1Id (the pool's own order, which never changes) and its swap fee in bps (a V3 pool's fee " +
        "tier / 100). The optional createdAt* fields are left out.",
      query: ID_QUERY_SCHEMA,
      schema: PAIR_RESPONSE_SCHEMA,
      example: SPEC_EXAMPLES.pair,
      notFound: "The address is not an indexed pool.",
    }),
    "/dexscreener/{network}/events": operation({
      operationId: "dexScreenerEvents",
      summary: "DEX Screener adapter: swaps, joins and exits of a block range",
      description:
        "Every Swap (swap), Mint (join) and Burn (exit) log of the indexed pools in fromBlock..toBlock " +
        "(inclusive), in chain order, with the transaction's signer as maker. Amounts and reserves are " +
        "decimalized exactly (strings); priceNative is the asset1 paid or taken per asset0 in the swap, " +
        "to 50 decimal places. reserves are a V2 pair's reserves right after the event (its Sync); a V3 " +
        "pool's are left out (its token balances are in no log). toBlock may not pass latest-block, " +
        `and a range holds at most ${MAX_EVENT_BLOCKS} blocks. Answers of more than 1,000 events are streamed.`,
      query: EVENTS_QUERY_SCHEMA,
      schema: EVENTS_RESPONSE_SCHEMA,
      example: SPEC_EXAMPLES.events,
    }),
  };
}
