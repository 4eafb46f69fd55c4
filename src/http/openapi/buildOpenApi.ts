import { ERROR_BODY_SCHEMA, INTEGER_STRING_PATTERN } from "../api/restSchemas.js";
import { readPackageVersion } from "../readPackageVersion.js";
import type { DocumentedRoute } from "../routeDoc.js";

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

interface ObjectSchema {
  properties?: Record<string, { description?: string }>;
  required?: readonly string[];
}

/** A GET route as registered: its path, the JSON Schemas it validates with, and its description. */
export type RegisteredRoute = Omit<DocumentedRoute, "handler">;

const DESCRIPTION = `Market data of DEX swaps on BSC, Ethereum and Polygon (constant-product pools of Uniswap V2 and its forks, concentrated-liquidity pools of Uniswap V3 and PancakeSwap V3), indexed over JSON-RPC by swapgraph.

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

// The headers the answers' descriptions name (components.headers).
const HEADERS = {
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
    description: 'Only with X-Next-Cursor: `</api/swaps_24h?network=...&limit=...&cursor=...>; rel="next"`.',
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
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** An error answer: ErrorBody with an example message. */
function errorResponse(description: string, example: string, headers?: string[]) {
  return {
    description,
    ...(headers === undefined ? {} : { headers: headerRefs(headers) }),
    content: { "application/json": { schema: ref("schemas", "ErrorBody"), example: { error: example } } },
  };
}

function headerRefs(names: string[]) {
  return Object.fromEntries(names.map((name) => [name, ref("headers", name)]));
}

const FRESHNESS = ["X-Indexed-Block", "X-Data-Age"];
const KEPT = [...FRESHNESS, "ETag", "Cache-Control"];

// The answers every route may give (components.responses).
const RESPONSES = {
  BadRequest: errorResponse(
    "A missing or bad parameter (unknown network, unknown symbol, the same token twice, a repeated or over-long parameter, a bad limit or cursor).",
    'network "BSC" is not supported; use one of: bsc, eth, polygon.',
  ),
  NotFound: errorResponse("Any path this server does not know.", "Unknown path /api/nope."),
  MethodNotAllowed: errorResponse(
    "A method other than GET, HEAD or OPTIONS.",
    "Method POST is not allowed; use GET.",
    ["Allow"],
  ),
  NotReady: errorResponse(
    "Data not ready: backfill still running, network not configured here, indexer halted, or data older than the network's maxStalenessSeconds.",
    "Network eth is still being indexed; retry in a few minutes.",
  ),
  InternalError: errorResponse("Anything unexpected; the message is masked.", "Internal server error."),
  TooManyRequests: errorResponse(
    "The client sent more requests than its rate limit (when the server sets one).",
    "Too many requests: at most 20 per second per client; retry after 1 s.",
    ["Retry-After"],
  ),
  NotModified: {
    description:
      "The client's If-None-Match names the current answer: no body; ETag, Cache-Control and the freshness headers as on a 200.",
    headers: headerRefs(KEPT),
  },
};

const COMMON_ERRORS = {
  "400": ref("responses", "BadRequest"),
  "405": ref("responses", "MethodNotAllowed"),
  "429": ref("responses", "TooManyRequests"),
  "503": ref("responses", "NotReady"),
  "500": ref("responses", "InternalError"),
};

/**
 * "/coingecko/:network/pairs" as OpenAPI writes it: "/coingecko/{network}/pairs".
 * @internal exported for tests, which name the paths.
 */
export function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

/**
 * Builds the OpenAPI 3.1 document of the routes registered with a description (RouteDoc): paths
 * and parameters from their paths and JSON Schemas, every titled schema under
 * components.schemas and a $ref wherever it is used.
 */
export function buildOpenApi(
  routes: readonly RegisteredRoute[],
  version = readPackageVersion(),
): OpenApiDocument {
  const schemas = new Map<object, string>();
  for (const route of routes) nameSchemas(route.doc.ok.schema, schemas);
  nameSchemas(ERROR_BODY_SCHEMA, schemas);
  const withRefs = (value: unknown, root = true): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const name = schemas.get(value);
    if (!root && name !== undefined) return ref("schemas", name);
    if (Array.isArray(value)) return value.map((item) => withRefs(item, false));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withRefs(item, false)]));
  };
  const parameters = (of: object | undefined, place: "path" | "query") => {
    const schema = of as ObjectSchema | undefined;
    return Object.entries(schema?.properties ?? {}).map(([name, { description, ...rest }]) => ({
      name,
      in: place,
      required: place === "path" || schema?.required?.includes(name) === true,
      description,
      schema: withRefs(rest),
    }));
  };
  const operation = ({ params, querystring, doc }: RegisteredRoute) => ({
    operationId: doc.operationId,
    tags: [doc.tag],
    summary: doc.summary,
    description: doc.description,
    parameters: [...parameters(params, "path"), ...parameters(querystring, "query")],
    responses: {
      "200": {
        description: doc.ok.description,
        headers: headerRefs([...(doc.kept === true ? KEPT : FRESHNESS), ...(doc.headers ?? [])]),
        content: {
          [doc.ok.media ?? "application/json"]: {
            schema: withRefs(doc.ok.schema, false),
            ...(doc.ok.example === undefined ? {} : { example: doc.ok.example }),
          },
        },
      },
      ...(doc.kept === true ? { "304": ref("responses", "NotModified") } : {}),
      ...COMMON_ERRORS,
      ...Object.fromEntries(
        Object.entries(doc.errors ?? {}).map(([status, { description, example }]) => [
          status,
          errorResponse(description, example),
        ]),
      ),
    },
  });
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
    paths: Object.fromEntries(routes.map((route) => [openApiPathOf(route.path), { get: operation(route) }])),
    components: {
      schemas: Object.fromEntries([...schemas].map(([schema, name]) => [name, withRefs(schema)])),
      headers: HEADERS,
      responses: RESPONSES,
    },
  };
}

/** Adds every schema with a title in `schema` (itself included) to `names`, nested ones first. */
function nameSchemas(schema: unknown, names: Map<object, string>): void {
  if (typeof schema !== "object" || schema === null || names.has(schema)) return;
  for (const item of Object.values(schema)) nameSchemas(item, names);
  const title = (schema as { title?: unknown }).title;
  if (typeof title !== "string") return;
  if ([...names.values()].includes(title)) throw new Error(`Two schemas are titled ${title}.`);
  names.set(schema, title);
}
