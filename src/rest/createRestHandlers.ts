import type { ServerResponse } from "node:http";
import type { DocumentNode } from "graphql";
import type { NetworkName } from "../domain/types.js";
import type { GraphqlExecutor, GraphqlSession } from "../graphql/createGraphqlExecutor.js";
import { MAX_SWAPS_PAGE } from "../graphql/listSwaps.js";
import { createLruCache } from "./createLruCache.js";
import { openChunkedAnswer } from "./openChunkedAnswer.js";
import { readCursor, readLimit, readNetwork, readTokenParam } from "./readQueryParams.js";
import { parseRestOperations } from "./restOperations.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "./sendCachedJson.js";
import { JSON_HEADERS } from "./sendJson.js";

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
  /** Runs the fixed operations in-process against the schema the GraphQL endpoint serves. */
  executor: GraphqlExecutor;
  /** Swaps per GraphQL page while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer kept and shared within its block and second (characters, default 4 Mi; 0: never). */
  sharedListMaxChars?: number;
  /** Most answers of /api/quote and /api/trade_volume_usd_7d kept (default 10,000; 0: no cache). */
  answerCacheMaxEntries?: number;
  /** Most bytes those kept answers hold, gzip copies included (default 32 MiB). */
  answerCacheMaxBytes?: number;
}

// Only when a network's status is missing (it is then refused anyway).
const DEFAULT_POLL_MS = 1_000;

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
    /** Only in the status operation: how often the network's indexer polls (ms). */
    pollIntervalMs?: number;
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
const DAY_MS = 86_400_000;

/** A kept answer and the indexed state it was made from. */
interface AnswerEntry extends CachedJson {
  /** X-Indexed-Block of the answer: a new block makes it old. */
  block: string;
  /** Unix ms after which it is made again, whatever the block says (see answerCached). */
  expiresAt: number;
}

/**
 * The cache key of a token parameter. Symbols resolve case-insensitively and addresses are
 * lowercased, so case does not change a successful answer, with one exception: "0X" + 40 hex
 * is a 400 while "0x" + 40 hex is an address; such input (and non-ASCII, whose lowercase may
 * differ in length) keeps its case, so a request never shares an answer it would not get.
 */
function tokenKey(value: string): string {
  return /^[\x21-\x7e]+$/.test(value) && !value.startsWith("0X") ? value.toLowerCase() : value;
}

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

// The per-block answer cache of /api/quote and /api/trade_volume_usd_7d: a quote is ~300 bytes,
// so the byte bound is what holds when many distinct token pairs are asked.
const ANSWER_CACHE_MAX_ENTRIES = 10_000;
const ANSWER_CACHE_MAX_BYTES = 32 * 1024 * 1024;
// Map slot, entry object, ETags and Buffer headers of one kept answer, roughly.
const ENTRY_OVERHEAD_BYTES = 400;

// Swaps per page of the streamed list: executing a page through GraphQL costs about 50 µs a swap,
// so 250 keep each turn of the event loop near 15 ms and other requests answered meanwhile.
const STREAM_PAGE_SIZE = 250;

/**
 * Creates the three REST handlers, keyed by path. Each runs fixed GraphQL operations, parsed
 * once, with graphql's execute() in-process (no HTTP hop), and renames the result to the public
 * API's JSON. /api/swaps_24h streams its array page by page; the other two answer in one piece.
 */
export function createRestHandlers(options: RestHandlersOptions): ReadonlyMap<string, RestHandler> {
  const { executor } = options;
  const operations = parseRestOperations(executor);
  const pageSize = options.swapsPageSize ?? STREAM_PAGE_SIZE;
  const shareMaxChars = options.sharedListMaxChars ?? SHARED_LIST_MAX_CHARS;
  const answerMaxEntries = options.answerCacheMaxEntries ?? ANSWER_CACHE_MAX_ENTRIES;
  const answers =
    answerMaxEntries > 0
      ? createLruCache<AnswerEntry>({
          maxEntries: answerMaxEntries,
          maxBytes: options.answerCacheMaxBytes ?? ANSWER_CACHE_MAX_BYTES,
          sizeOf: (key, entry) =>
            ENTRY_OVERHEAD_BYTES + key.length + entry.body.length + (entry.gzipped?.length ?? 0),
        })
      : undefined;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }

  // A client or shared cache may keep an answer about one poll (a new block can come no sooner),
  // and show it a few polls longer while it revalidates.
  // (GraphQL's networkStatus says how often the network's indexer polls.)
  const cacheControls = new Map<number, string>();
  function cacheControl(pollIntervalMs: number): string {
    let value = cacheControls.get(pollIntervalMs);
    if (value === undefined) {
      const maxAge = Math.max(1, Math.round(pollIntervalMs / 1000));
      value = `public, max-age=${maxAge}, stale-while-revalidate=${3 * maxAge}`;
      cacheControls.set(pollIntervalMs, value);
    }
    return value;
  }

  /**
   * Answers from the kept bytes of `key` when they were made at the network's current indexed
   * block, else renders (GraphQL), keeps and sends. The status operation runs on every request:
   * it gives this request's X-Data-Age and whether the network serves now, so a halted or too
   * stale network gets its 503 from `render` rather than an old answer. Entries also expire
   * after one poll interval: the pools and aggregates can run ahead of the status' block until
   * the next poll, and a reorg can bring the same block number back with other contents.
   */
  async function answerCached(
    exchange: RestExchange,
    network: NetworkName,
    key: string,
    context: GraphqlSession,
    render: () => Promise<{ value: unknown; networkStatus: FreshnessData["networkStatus"] }>,
  ): Promise<void> {
    const { head, gzip, res } = exchange;
    const ifNoneMatch = res.req.headers["if-none-match"];
    const { networkStatus } = await run<FreshnessData>(operations.status, { network }, context);
    const serving = networkStatus?.serving === true ? networkStatus : undefined;
    const block = serving?.indexedBlock ?? null;
    const pollIntervalMs = networkStatus?.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (answers !== undefined && block !== null) {
      const kept = answers.get(key);
      if (kept !== undefined && kept.block === block && kept.expiresAt > context.nowMs) {
        const headers = freshnessHeaders(networkStatus);
        sendCachedJson(res, kept, {
          head,
          gzip,
          ifNoneMatch,
          headers,
          cacheControl: cacheControl(pollIntervalMs),
        });
        return;
      }
    }
    // Errors (400, 422, 503) are thrown here and never kept.
    const rendered = await render();
    const madeAt = rendered.networkStatus?.indexedBlock ?? null;
    const answer = buildCachedJson(rendered.value, `${network}-${madeAt ?? "none"}`);
    if (answers !== undefined && block !== null && madeAt !== null) {
      answers.set(key, { ...answer, block: madeAt, expiresAt: context.nowMs + pollIntervalMs });
    }
    sendCachedJson(res, answer, {
      head,
      gzip,
      ifNoneMatch,
      headers: freshnessHeaders(rendered.networkStatus),
      cacheControl: cacheControl(pollIntervalMs),
    });
  }

  function run<T>(
    document: DocumentNode,
    variables: Record<string, unknown>,
    session: GraphqlSession,
  ): Promise<T> {
    return session.run<T>(document, variables);
  }

  // A quote is a function of the network's pools, so of its indexed block.
  const quote: RestHandler = async (exchange) => {
    const { params } = exchange;
    const variables = {
      network: readNetwork(params),
      sellToken: readTokenParam(params, "sellToken"),
      buyToken: readTokenParam(params, "buyToken"),
    };
    const key = `quote\n${variables.network}\n${tokenKey(variables.sellToken)}\n${tokenKey(variables.buyToken)}`;
    const context = executor.session();
    await answerCached(exchange, variables.network, key, context, async () => {
      const data = await run<QuoteData>(operations.quote, variables, context);
      const { network, sellToken, buyToken, price } = data.quote;
      const value = {
        result: { network, sell_token: tokenBody(sellToken), buy_token: tokenBody(buyToken), price },
      };
      return { value, networkStatus: data.networkStatus };
    });
  };

  // Seven days ending today: a function of the indexed block and of the UTC day.
  const tradeVolume7d: RestHandler = async (exchange) => {
    const network = readNetwork(exchange.params);
    const context = executor.session();
    const key = `7d\n${network}\n${Math.floor(context.nowMs / DAY_MS)}`;
    await answerCached(exchange, network, key, context, async () => {
      const data = await run<DailyVolumesData>(operations.dailyVolumes, { network }, context);
      const value = data.dailyVolumes.map((day) => ({
        date: day.date,
        address_count: String(day.addressCount),
        trade_volume_usd: day.volumeUSD,
      }));
      return { value, networkStatus: data.networkStatus };
    });
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
    const context = executor.session();
    const { networkStatus } = await run<FreshnessData>(operations.status, { network }, context);
    const window = { network, from: context.now - DAY, atBlock: networkStatus?.indexedBlock ?? null };
    // A whole-window answer is a function of (network, indexed block, window start): when it is
    // small, the requests of that second share one rendering instead of each executing it.
    const shareKey =
      limit === undefined && cursor === undefined && shareMaxChars > 0 && window.atBlock !== null
        ? `swaps\n${network}\n${window.atBlock}\n${window.from}`
        : undefined;
    // Only a network that serves now may answer from the shared copy (staleness, halts). It is
    // kept with the other answers (one memory bound); the window moves every second, so clients
    // get no max-age, only a validator for that block and second.
    const shared =
      shareKey === undefined || networkStatus?.serving !== true ? undefined : answers?.get(shareKey);
    if (shared !== undefined) {
      const ifNoneMatch = res.req.headers["if-none-match"];
      const headers = freshnessHeaders(networkStatus);
      sendCachedJson(res, shared, { head, gzip, ifNoneMatch, headers, cacheControl: "no-cache" });
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
    if (kept !== undefined && shareKey !== undefined && window.atBlock !== null) {
      const body = Buffer.from(kept.join(""));
      const entry = buildCachedJson(body, `${network}-${window.atBlock}`);
      answers?.set(shareKey, { ...entry, block: window.atBlock, expiresAt: (context.now + 1) * 1000 });
    }
  };

  // The cursor after the `limit`-th swap, found before the headers go out; pages of cursors
  // only (nothing formatted or held), pinned like the answer's own pages.
  async function findNextCursor(
    first: SwapsData,
    limit: number,
    window: Record<string, unknown>,
    context: GraphqlSession,
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
