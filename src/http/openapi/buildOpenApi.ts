import {
  DAILY_VOLUME_SCHEMA,
  ERROR_BODY_SCHEMA,
  EXPORT_QUERY_SCHEMA,
  INTEGER_STRING_PATTERN,
  QUOTE_BODY_SCHEMA,
  QUOTE_QUERY_SCHEMA,
  QUOTE_RESULT_SCHEMA,
  SWAP_EXPORT_ROW_SCHEMA,
  SWAP_SCHEMA,
  SWAPS_BODY_SCHEMA,
  SWAPS_QUERY_SCHEMA,
  TOKEN_AMOUNT_SCHEMA,
  TOKEN_SCHEMA,
  VOLUMES_BODY_SCHEMA,
  VOLUMES_QUERY_SCHEMA,
} from "../api/restSchemas.js";
import { readPackageVersion } from "../readPackageVersion.js";
import { buildDexScreenerPaths } from "./buildDexScreenerOpenApi.js";
import { buildListingOpenApiPaths } from "./listingOpenApi.js";

/** An OpenAPI 3.1 document as plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

// Schemas published under components.schemas; wherever one is nested (by identity) in another,
// the document says $ref instead of repeating it.
const NAMED_SCHEMAS: [string, object][] = [
  ["Token", TOKEN_SCHEMA],
  ["TokenAmount", TOKEN_AMOUNT_SCHEMA],
  ["QuoteResult", QUOTE_RESULT_SCHEMA],
  ["QuoteBody", QUOTE_BODY_SCHEMA],
  ["Swap", SWAP_SCHEMA],
  ["SwapsBody", SWAPS_BODY_SCHEMA],
  ["SwapExportRow", SWAP_EXPORT_ROW_SCHEMA],
  ["DailyVolume", DAILY_VOLUME_SCHEMA],
  ["DailyVolumesBody", VOLUMES_BODY_SCHEMA],
  ["ErrorBody", ERROR_BODY_SCHEMA],
];
const NAME_OF = new Map<object, string>(NAMED_SCHEMAS.map(([name, schema]) => [schema, name]));

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** A deep copy of `value` where every nested named schema is a $ref (the root stays inline). */
function withRefs(value: unknown, root = true): unknown {
  if (typeof value !== "object" || value === null) return value;
  const name = NAME_OF.get(value);
  if (!root && name !== undefined) return schemaRef(name);
  if (Array.isArray(value)) return value.map((item) => withRefs(item, false));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withRefs(item, false)]));
}

interface QuerySchema {
  properties: Record<string, { description?: string }>;
  required?: readonly string[];
}

/** The query parameters of an operation, one per property of its query schema. */
function queryParameters(query: QuerySchema): object[] {
  return Object.entries(query.properties).map(([name, { description, ...schema }]) => ({
    name,
    in: "query",
    required: query.required?.includes(name) ?? false,
    ...(description === undefined ? {} : { description }),
    schema: withRefs(schema),
  }));
}

function jsonContent(schemaName: string, example: unknown) {
  return { "application/json": { schema: schemaRef(schemaName), example } };
}

function errorResponse(description: string, example: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    content: jsonContent("ErrorBody", { error: example }),
  };
}

const FRESHNESS_HEADERS = {
  "X-Indexed-Block": headerRef("X-Indexed-Block"),
  "X-Data-Age": headerRef("X-Data-Age"),
};

// Examples are real answers of the demo (README); a test validates each against its schema.
const TOKEN_EXAMPLE = {
  name: "Tether USD",
  symbol: "USDT",
  decimals: "18",
  address: "0x454c4a3f632d909ca3bca7218cabbc86fc5c5481",
};
const QUOTE_EXAMPLE = {
  result: {
    network: "bsc",
    sell_token: { name: "BNB", symbol: "BNB", decimals: "18", address: "" },
    buy_token: TOKEN_EXAMPLE,
    price: "675.123167662017778396",
  },
};
const SWAPS_EXAMPLE = [
  {
    tx_hash: "0xfa8362a45c6ec9229960e12827388367d75b3fffaee734e293b370cf2a18755b",
    block_number: "506",
    sell_token: {
      name: "Wrapped Ether",
      symbol: "WETH",
      decimals: "18",
      address: "0xa5bdd56ca4791274332db3f437449be6f6d22365",
      amount: "600000000000000",
      amount_decimal: "0.00060000",
    },
    buy_token: {
      name: "Rug Pull",
      symbol: "RUG",
      decimals: "9",
      address: "0xe813f33d5ab8570e13f59f36b79d4c75f7ffd008",
      amount: "4575851852370",
      amount_decimal: "4575.85185237",
    },
    trade_volume_usd: "1.790911254387472626",
  },
];
// One line of /api/swaps_export: the list's element with what keys and dates it.
const { tx_hash, block_number, sell_token, buy_token, trade_volume_usd } = SWAPS_EXAMPLE[0]!;
const EXPORT_ROW_EXAMPLE = {
  tx_hash,
  log_index: 3,
  block_number,
  timestamp: 1795651200,
  sender: "0xa11ce00000000000000000000000000000000001",
  sell_token,
  buy_token,
  trade_volume_usd,
  tracked: true,
  pools: ["0x3b1d0a43a4ed3d5c0d7a8d52c6f6bd4e0b1b7e0a"],
};

const VOLUMES_EXAMPLE = [
  ["2026-11-22", "40", "59059.545101709486037981"],
  ["2026-11-21", "60", "582024.416343579637626289"],
  ["2026-11-20", "58", "571210.5"],
  ["2026-11-19", "60", "590114.25"],
  ["2026-11-18", "57", "560981.125"],
  ["2026-11-17", "59", "577745.0625"],
  ["2026-11-16", "0", "0"],
].map(([date, address_count, trade_volume_usd]) => ({ date, address_count, trade_volume_usd }));

const DESCRIPTION = `Market data of Uniswap-V2-style DEX swaps on BSC, Ethereum and Polygon, indexed over JSON-RPC by swapgraph.

**The contract.** The three endpoints are wire-compatible with the public market-data API: same paths, parameters and JSON bodies, field for field. Every value of a success body is a JSON string (numbers and dates included, never in exponent notation); addresses are lowercase; the native coin has \`"address": ""\`.

**swapgraph's extensions**, none of which changes a contract body:

- \`network\` is optional on all three endpoints (\`bsc\`, \`eth\`, \`polygon\`; default \`bsc\`). Unknown query parameters are ignored; names and values are case-sensitive.
- Every success answer says how fresh it is: \`X-Indexed-Block\` and \`X-Data-Age\`.
- \`/api/swaps_24h\` pages with \`limit\` and \`cursor\` (\`X-Next-Cursor\`, \`Link: rel="next"\`); without them it streams the whole 24-hour window.
- \`/api/swaps_export\` streams any stored window (\`from\`, \`to\`, \`atBlock\`) as NDJSON, one swap a line, for bulk readers.
- Every error is exactly \`{"error": "<one sentence>"}\` with a fitting status: 400 bad parameter, 404 unknown path, 405 other methods (with \`Allow\`), 422 no answer (no liquidity route), 429 over the client's rate limit (with \`Retry-After\`, when the server sets one), 503 data not ready, 500 unexpected (masked).
- Quotes and daily volumes carry \`ETag\` and \`Cache-Control\`; \`If-None-Match\` gets a 304 while the indexed state is the same.
- CORS is open; HEAD answers the GET's status and headers without a body; answers are gzip-compressed for clients that accept it.

The same data, and more, is served by GraphQL at [/graphql](/graphql).`;

/** Builds the OpenAPI 3.1 document of the REST facade from its JSON Schemas (restSchemas.ts). */
export function buildOpenApi(options: { version?: string } = {}): OpenApiDocument {
  const version = options.version ?? readPackageVersion();
  return {
    openapi: "3.1.0",
    info: {
      title: "swapgraph market-data API",
      version,
      description: DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Market data", description: "The three endpoints of the public market-data API." },
      { name: "Listings", description: "CoinGecko's and CoinMarketCap's DEX formats, per network." },
      {
        name: "DEX Screener adapter",
        description: "The endpoints DEX Screener reads from a DEX (its Adapter Specs).",
      },
    ],
    paths: {
      ...buildMarketDataPaths(),
      ...buildListingOpenApiPaths(),
      ...buildDexScreenerPaths(),
    },
    components: buildComponents(),
  };
}

// The market-data endpoints' paths (quote, swaps, export, daily volumes).
function buildMarketDataPaths(): OpenApiDocument["paths"] {
  const commonErrors = {
    "400": responseRef("BadRequest"),
    "405": responseRef("MethodNotAllowed"),
    "429": responseRef("TooManyRequests"),
  };
  const cachedHeaders = {
    ...FRESHNESS_HEADERS,
    ETag: headerRef("ETag"),
    "Cache-Control": headerRef("Cache-Control"),
  };
  const serverErrors = { "503": responseRef("NotReady"), "500": responseRef("InternalError") };

  return {
    "/api/quote": {
      get: {
        operationId: "getQuote",
        tags: ["Market data"],
        summary: "Current swap price of a sell token in a buy token",
        description:
          "The amount of `buyToken` received for exactly one whole `sellToken`, along the best route of up " +
          "to 3 hops through the network's base tokens across every indexed DEX, pool fees included (each " +
          "DEX's exact V2 math). A token is a symbol of the network's token list (case-insensitive; `BNB`, " +
          "`ETH`, `POL` or `MATIC` mean the native coin) or any ERC-20 address. The same token on both sides " +
          "(the native coin and its wrapped token count as the same) is a 400.",
        parameters: queryParameters(QUOTE_QUERY_SCHEMA),
        responses: {
          "200": {
            description: "The quote.",
            headers: cachedHeaders,
            content: jsonContent("QuoteBody", QUOTE_EXAMPLE),
          },
          "304": responseRef("NotModified"),
          ...commonErrors,
          "422": responseRef("Unprocessable"),
          ...serverErrors,
        },
      },
    },
    "/api/swaps_24h": {
      get: {
        operationId: "listSwaps24h",
        tags: ["Market data"],
        summary: "Swap transactions of the last 24 hours",
        description:
          "Every trade on the indexed pools in the last 24 hours, ascending by block then position in the " +
          "block. A multi-hop transaction is one element (what went in first, what came out last); a " +
          "transaction with several independent swaps (an aggregator) is one element per swap, side by side " +
          "with the same tx_hash. The native coin appears when the router wrapped or unwrapped it. The array is streamed " +
          "(chunked, no Content-Length) and pinned to the block in `X-Indexed-Block`. With `limit`, an " +
          "answer that has more after it carries `X-Next-Cursor` and `Link`; pass the cursor back to continue.",
        parameters: queryParameters(SWAPS_QUERY_SCHEMA),
        responses: {
          "200": {
            description: "The swaps, oldest first.",
            headers: {
              ...FRESHNESS_HEADERS,
              "X-Next-Cursor": headerRef("X-Next-Cursor"),
              Link: headerRef("Link"),
            },
            content: jsonContent("SwapsBody", SWAPS_EXAMPLE),
          },
          ...commonErrors,
          ...serverErrors,
        },
      },
    },
    ...buildExportPath(commonErrors, serverErrors),
    "/api/trade_volume_usd_7d": {
      get: {
        operationId: "listTradeVolume7d",
        tags: ["Market data"],
        summary: "Trade volume in USD and trading addresses per day, last 7 days",
        description:
          "Exactly 7 UTC days, newest first (today so far and the 6 days before); a day without trades is " +
          'present with `"0"` and `"0"`. `address_count` is the number of distinct transaction senders that ' +
          "swapped that day, `trade_volume_usd` the exact sum of that day's trades.",
        parameters: queryParameters(VOLUMES_QUERY_SCHEMA),
        responses: {
          "200": {
            description: "Seven days, newest first.",
            headers: cachedHeaders,
            content: jsonContent("DailyVolumesBody", VOLUMES_EXAMPLE),
          },
          "304": responseRef("NotModified"),
          ...commonErrors,
          ...serverErrors,
        },
      },
    },
  };
}

// The /api/swaps_export path (NDJSON stream of a stored window).
function buildExportPath(
  commonErrors: Record<string, unknown>,
  serverErrors: Record<string, unknown>,
): OpenApiDocument["paths"] {
  return {
    "/api/swaps_export": {
      get: {
        operationId: "exportSwaps",
        tags: ["Market data"],
        summary: "Every stored swap of a window, streamed as NDJSON",
        description:
          "Extension for bulk readers: every stored swap of the network with from <= timestamp < to, at or below " +
          "`atBlock` (default: the block indexed when the request started, in `X-Indexed-Block`), one JSON object " +
          "a line (`application/x-ndjson`), ascending by block then position in the block. Each line is a " +
          "/api/swaps_24h element with `log_index`, `timestamp`, `sender`, `tracked` and `pools`. The answer is " +
          "streamed (chunked, no Content-Length) one keyset page at a time as the client reads, so any window " +
          "can be read at the speed of the connection; the window is limited by what the server keeps (its " +
          "`windowDays`). A bad window is a JSON 400 before any line.",
        parameters: queryParameters(EXPORT_QUERY_SCHEMA),
        responses: {
          "200": {
            description: "The swaps, oldest first, one SwapExportRow a line.",
            headers: FRESHNESS_HEADERS,
            content: {
              "application/x-ndjson": { schema: schemaRef("SwapExportRow"), example: EXPORT_ROW_EXAMPLE },
            },
          },
          ...commonErrors,
          ...serverErrors,
        },
      },
    },
  };
}

// The named schemas, headers and error answers the paths refer to.
function buildComponents(): OpenApiDocument["components"] {
  return {
    schemas: Object.fromEntries(NAMED_SCHEMAS.map(([name, schema]) => [name, withRefs(schema)])),
    headers: {
      "X-Indexed-Block": {
        description:
          "The newest block whose swaps are all indexed (for /api/swaps_24h: the block the whole list is pinned to).",
        schema: { type: "string", pattern: INTEGER_STRING_PATTERN },
      },
      "X-Data-Age": {
        description: "Whole seconds since the indexed block last equalled the chain head.",
        schema: { type: "string", pattern: INTEGER_STRING_PATTERN },
      },
      "X-Next-Cursor": {
        description: "Only on a limited answer that has more after it: the `cursor` of the next page.",
        schema: { type: "string" },
      },
      Link: {
        description:
          'Only with X-Next-Cursor: `</api/swaps_24h?network=...&limit=...&cursor=...>; rel="next"`.',
        schema: { type: "string" },
      },
      ETag: {
        description:
          "Names the answer's bytes for one network, indexed block and parameters (a gzip body has its own tag); send it back in If-None-Match.",
        schema: { type: "string" },
      },
      "Cache-Control": {
        description:
          "On success `public, max-age=<the network's poll interval>, stale-while-revalidate=<three polls>`; on errors `no-store`.",
        schema: { type: "string" },
      },
      "Retry-After": {
        description: "Whole seconds until the client's rate limit lets a request through again.",
        schema: { type: "string", pattern: INTEGER_STRING_PATTERN },
      },
      Allow: {
        description: "The methods the path answers.",
        schema: { type: "string", const: "GET, HEAD, OPTIONS" },
      },
    },
    responses: {
      BadRequest: errorResponse(
        "A missing or bad parameter (unknown network, unknown symbol, the same token twice, a repeated or over-long parameter, a bad limit or cursor).",
        'network "BSC" is not supported; use one of: bsc, eth, polygon.',
      ),
      NotFound: errorResponse("Any path this server does not know.", "Unknown path /api/nope."),
      MethodNotAllowed: errorResponse(
        "A method other than GET, HEAD or OPTIONS.",
        "Method POST is not allowed; use GET.",
        { Allow: headerRef("Allow") },
      ),
      Unprocessable: errorResponse(
        "A well-formed request that has no answer: no liquidity route between the tokens.",
        "No liquidity route from LONELY to USDT on bsc in the indexed pools.",
      ),
      NotReady: errorResponse(
        "Data not ready: backfill still running, network not configured here, indexer halted, or data older than the network's maxStalenessSeconds.",
        "Network eth is still being indexed; retry in a few minutes.",
      ),
      InternalError: errorResponse("Anything unexpected; the message is masked.", "Internal server error."),
      TooManyRequests: errorResponse(
        "The client sent more requests than its rate limit (when the server sets one).",
        "Too many requests: at most 20 per second per client; retry after 1 s.",
        { "Retry-After": headerRef("Retry-After") },
      ),
      NotModified: {
        description:
          "The client's If-None-Match names the current answer: no body; ETag, Cache-Control and the freshness headers as on a 200.",
        headers: {
          ...FRESHNESS_HEADERS,
          ETag: headerRef("ETag"),
          "Cache-Control": headerRef("Cache-Control"),
        },
      },
    },
  };
}
