import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { type DocumentNode, execute, type GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { MarketReader } from "../domain/market.js";
import { createGraphqlContext, type GraphqlContext } from "../graphql/createGraphqlContext.js";
import { findSwapgraphError } from "../graphql/findSwapgraphError.js";
import { MAX_SWAPS_PAGE } from "../graphql/listSwaps.js";
import { openChunkedAnswer } from "./openChunkedAnswer.js";
import { readCursor, readLimit, readNetwork, readTokenParam } from "./readQueryParams.js";
import { parseRestOperations } from "./restOperations.js";
import { JSON_HEADERS, sendJson } from "./sendJson.js";

/** One REST request as its handler sees it. */
export interface RestExchange {
  params: URLSearchParams;
  /** HEAD: the GET's status and headers without a body. */
  head: boolean;
  /** The client accepts gzip. */
  gzip: boolean;
  res: ServerResponse;
}

/**
 * A REST handler answers on `res` itself. Throwing before the first byte makes the server send
 * the JSON error answer; once bytes went out, the server destroys the socket instead.
 */
export type RestHandler = (exchange: RestExchange) => Promise<void>;

/** Options of createRestHandlers. */
export interface RestHandlersOptions {
  reader: MarketReader;
  /** The schema the GraphQL server serves: the REST facade executes against the same one. */
  schema: GraphQLSchema;
  logger?: Logger;
  /** Swaps per GraphQL page while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer kept and shared within its block and second (characters, default 4 Mi; 0: never). */
  sharedListMaxChars?: number;
}

/** Largest `limit` of /api/swaps_24h. */
export const MAX_SWAPS_LIMIT = 10_000;

/** Response headers a browser script may read (CORS hides non-standard headers otherwise). */
const EXPOSED_HEADERS = "X-Indexed-Block, X-Data-Age, X-Next-Cursor, Link";

interface TokenFields {
  name: string;
  symbol: string;
  decimals: number;
  address: string;
}

interface AmountFields {
  token: TokenFields;
  amount: string;
  amountDecimal: string;
}

interface SwapNode {
  txHash: string;
  blockNumber: string;
  sell: AmountFields;
  buy: AmountFields;
  volumeUSD: string;
}

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

interface FreshnessData {
  networkStatus: {
    indexedBlock: string | null;
    dataAgeSeconds: number | null;
    /** Only in the status operation: whether market queries answer now (ready, fresh, not halted). */
    serving?: boolean;
  } | null;
}

interface QuoteData extends FreshnessData {
  quote: { network: string; sellToken: TokenFields; buyToken: TokenFields; price: string };
}

interface SwapsData {
  swaps: { pageInfo: PageInfo; edges: { node: SwapNode }[] };
}

interface SwapCursorsData {
  swaps: { pageInfo: PageInfo };
}

interface DailyVolumesData extends FreshnessData {
  dailyVolumes: { date: string; addressCount: number; volumeUSD: string }[];
}

const DAY = 86_400;

// Field order is the spec's table order.
function tokenBody(token: TokenFields) {
  return { name: token.name, symbol: token.symbol, decimals: String(token.decimals), address: token.address };
}

function amountBody(side: AmountFields) {
  return { ...tokenBody(side.token), amount: side.amount, amount_decimal: side.amountDecimal };
}

function swapBody(node: SwapNode) {
  return {
    tx_hash: node.txHash,
    block_number: node.blockNumber,
    sell_token: amountBody(node.sell),
    buy_token: amountBody(node.buy),
    trade_volume_usd: node.volumeUSD,
  };
}

/** X-Indexed-Block and X-Data-Age of an answer (each only when known). */
function freshnessHeaders(status: FreshnessData["networkStatus"]): Record<string, string> {
  const headers: Record<string, string> = { "Access-Control-Expose-Headers": EXPOSED_HEADERS };
  if (status?.indexedBlock !== null && status?.indexedBlock !== undefined) {
    headers["X-Indexed-Block"] = status.indexedBlock;
  }
  if (status?.dataAgeSeconds !== null && status?.dataAgeSeconds !== undefined) {
    headers["X-Data-Age"] = String(status.dataAgeSeconds);
  }
  return headers;
}

// A whole-window answer up to this size (about 8,000 swaps) is kept and shared by the requests
// of the same indexed block and second; larger ones are streamed for each request.
const SHARED_LIST_MAX_CHARS = 4 * 1024 * 1024;

// Swaps per page of the streamed list: executing a page through GraphQL costs about 50 µs a swap,
// so 250 keep each turn of the event loop near 15 ms and other requests answered meanwhile.
const STREAM_PAGE_SIZE = 250;

/**
 * Creates the three REST handlers, keyed by path. Each runs fixed GraphQL operations, parsed
 * once, with graphql's execute() in-process (no HTTP hop), and renames the result to the public
 * API's JSON. /api/swaps_24h streams its array page by page; the other two answer in one piece.
 */
export function createRestHandlers(options: RestHandlersOptions): ReadonlyMap<string, RestHandler> {
  const { reader, schema, logger } = options;
  const operations = parseRestOperations(schema);
  const pageSize = options.swapsPageSize ?? STREAM_PAGE_SIZE;
  const shareMaxChars = options.sharedListMaxChars ?? SHARED_LIST_MAX_CHARS;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }

  function newContext(): GraphqlContext {
    return createGraphqlContext(reader, logger === undefined ? {} : { logger });
  }

  async function run<T>(
    document: DocumentNode,
    variables: Record<string, unknown>,
    context: GraphqlContext,
  ): Promise<T> {
    const result = await execute({ schema, document, variableValues: variables, contextValue: context });
    const first = result.errors?.[0];
    // The GraphQL error wraps the resolver's error: the REST error handler wants the cause.
    if (first !== undefined) throw findSwapgraphError(first) ?? first;
    return result.data as T;
  }

  // The last small whole-window answer of each network (one entry per network: bounded).
  const sharedLists = new Map<string, { key: string; body: Buffer; gzipped: Buffer | undefined }>();

  const quote: RestHandler = async ({ params, head, gzip, res }) => {
    const variables = {
      network: readNetwork(params),
      sellToken: readTokenParam(params, "sellToken"),
      buyToken: readTokenParam(params, "buyToken"),
    };
    const data = await run<QuoteData>(operations.quote, variables, newContext());
    const { network, sellToken, buyToken, price } = data.quote;
    const body = {
      result: { network, sell_token: tokenBody(sellToken), buy_token: tokenBody(buyToken), price },
    };
    sendJson(res, 200, body, { head, gzip, headers: freshnessHeaders(data.networkStatus) });
  };

  const tradeVolume7d: RestHandler = async ({ params, head, gzip, res }) => {
    const data = await run<DailyVolumesData>(
      operations.dailyVolumes,
      { network: readNetwork(params) },
      newContext(),
    );
    const body = data.dailyVolumes.map((day) => ({
      date: day.date,
      address_count: String(day.addressCount),
      trade_volume_usd: day.volumeUSD,
    }));
    sendJson(res, 200, body, { head, gzip, headers: freshnessHeaders(data.networkStatus) });
  };

  /**
   * The whole window as one JSON array, written while the pages are read: every page is pinned
   * to the block indexed when the request started (and to one clock), so the array is one
   * indexed state however long the client takes to read it, and memory holds one page.
   */
  const swaps24h: RestHandler = async ({ params, head, gzip, res }) => {
    const network = readNetwork(params);
    const limit = readLimit(params, MAX_SWAPS_LIMIT);
    const cursor = readCursor(params);
    const context = newContext();
    const { networkStatus } = await run<FreshnessData>(operations.status, { network }, context);
    const window = { network, from: context.now - DAY, atBlock: networkStatus?.indexedBlock ?? null };
    // A whole-window answer is a function of (network, indexed block, window start): when it is
    // small, the requests of that second share one rendering instead of each executing it.
    const shareKey =
      limit === undefined && cursor === undefined && shareMaxChars > 0
        ? `${window.atBlock}:${window.from}`
        : undefined;
    // Only a network that serves now may answer from the shared copy (staleness, halts).
    const shared =
      shareKey === undefined || networkStatus?.serving !== true ? undefined : sharedLists.get(network);
    if (shared !== undefined && shared.key === shareKey) {
      const freshness = freshnessHeaders(networkStatus);
      if (!gzip) {
        sendJson(res, 200, shared.body, { head, headers: { ...freshness, Vary: "Accept-Encoding" } });
        return;
      }
      shared.gzipped ??= gzipSync(shared.body, { level: 6 });
      res.writeHead(200, {
        ...JSON_HEADERS,
        ...freshness,
        Vary: "Accept-Encoding",
        "Content-Encoding": "gzip",
        "Content-Length": String(shared.gzipped.length),
      });
      res.end(head ? undefined : shared.gzipped);
      return;
    }
    const readPage = (first: number, after: string | null) =>
      run<SwapsData>(operations.swaps, { ...window, first, after }, context);

    let remaining = limit ?? Number.POSITIVE_INFINITY;
    // The first page is read before any byte goes out: bad parameters and unready networks
    // still get their JSON error answers. HEAD reads one row for that and no page.
    let page = await readPage(head ? 1 : Math.min(pageSize, remaining), cursor ?? null);
    // The body size is unknown when the headers go out: gzip whenever the client takes it.
    const headers: Record<string, string> = {
      ...JSON_HEADERS,
      ...freshnessHeaders(networkStatus),
      Vary: "Accept-Encoding",
    };
    if (head) {
      res.writeHead(200, gzip ? { ...headers, "Content-Encoding": "gzip" } : headers);
      res.end();
      return;
    }
    if (limit !== undefined) {
      const next = await findNextCursor(page, limit, window, context);
      if (next !== undefined) {
        headers["X-Next-Cursor"] = next;
        const query = new URLSearchParams({ network, limit: String(limit), cursor: next });
        headers.Link = `</api/swaps_24h?${query}>; rel="next"`;
      }
    }

    const answer = openChunkedAnswer(res, 200, headers, {
      gzip,
      ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
    });
    // The old one-piece answer was JSON.stringify(array): "[", elements joined by ",", "]".
    let text = "[";
    let written = 0;
    // What was written, kept only while the answer stays small enough to share.
    let kept: string[] | undefined = shareKey === undefined ? undefined : [];
    let keptLength = 0;
    const keep = (piece: string) => {
      if (kept === undefined) return;
      keptLength += piece.length;
      if (keptLength > shareMaxChars) kept = undefined;
      else kept.push(piece);
    };
    for (;;) {
      const bodies = page.swaps.edges.map(({ node }) => swapBody(node));
      if (bodies.length > 0) {
        text += (written > 0 ? "," : "") + JSON.stringify(bodies).slice(1, -1);
        written += bodies.length;
        remaining -= bodies.length;
      }
      const { hasNextPage, endCursor } = page.swaps.pageInfo;
      if (!hasNextPage || remaining <= 0) break;
      keep(text);
      await answer.write(text);
      text = "";
      // A fast client drains at once (even synchronously): without this turn, one download
      // would keep the event loop through many pages while other requests wait.
      await new Promise((resolve) => setImmediate(resolve));
      page = await readPage(Math.min(pageSize, remaining), endCursor);
    }
    keep(`${text}]`);
    await answer.write(`${text}]`);
    await answer.end();
    if (kept !== undefined && shareKey !== undefined) {
      sharedLists.set(network, { key: shareKey, body: Buffer.from(kept.join("")), gzipped: undefined });
    }
  };

  // The cursor after the `limit`-th swap, found before the headers go out; pages of cursors
  // only (nothing formatted or held), pinned like the answer's own pages.
  async function findNextCursor(
    first: SwapsData,
    limit: number,
    window: Record<string, unknown>,
    context: GraphqlContext,
  ): Promise<string | undefined> {
    let { hasNextPage, endCursor } = first.swaps.pageInfo;
    let left = limit - first.swaps.edges.length;
    while (hasNextPage && left > 0) {
      const size = Math.min(MAX_SWAPS_PAGE, left);
      const data = await run<SwapCursorsData>(
        operations.swapCursors,
        { ...window, first: size, after: endCursor },
        context,
      );
      ({ hasNextPage, endCursor } = data.swaps.pageInfo);
      left -= size;
    }
    return hasNextPage && endCursor !== null ? endCursor : undefined;
  }

  return new Map([
    ["/api/quote", quote],
    ["/api/swaps_24h", swaps24h],
    ["/api/trade_volume_usd_7d", tradeVolume7d],
  ]);
}
