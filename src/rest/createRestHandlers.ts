import type { OutgoingHttpHeaders } from "node:http";
import { Readable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { countEvent } from "../domain/countEvent.js";
import { createLruCache } from "../domain/createLruCache.js";
import type { NetworkName } from "../domain/types.js";
import type { GraphqlExecutor, GraphqlSession, PreparedOperation } from "../graphql/createGraphqlExecutor.js";
import { MAX_SWAPS_PAGE } from "../graphql/listSwaps.js";
import type { SwapHourCache } from "./createSwapHourCache.js";
import { createSwapRowRenderer, type SwapNode, type TokenFields } from "./createSwapRowRenderer.js";
import { acceptsGzip, JSON_HEADERS } from "./jsonHeaders.js";
import { readCursor } from "./readQueryParams.js";
import { parseRestOperations } from "./restOperations.js";
import { QUOTE_QUERY_SCHEMA, SWAPS_QUERY_SCHEMA, VOLUMES_QUERY_SCHEMA } from "./restSchemas.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "./sendCachedJson.js";

/** One REST route: its path, the JSON Schema its query is validated with, and its handler. */
export interface RestRoute {
  path: string;
  querySchema: object;
  /** Its answers carry their own gzip copy (kept answers): the framework's compressor stays out. */
  ownCompression: boolean;
  /** zlib level of the framework's gzip for this route's answers (default zlib's, 6). */
  gzipLevel?: number;
  /** Answers through `reply`; throwing before the first byte makes the server send the JSON error. */
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

/** Options of createRestHandlers. */
export interface RestHandlersOptions {
  /** Runs the fixed operations in-process against the schema the GraphQL endpoint serves. */
  executor: GraphqlExecutor;
  /** Swaps per GraphQL page while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer kept and shared within its block and second (bytes, default 4 Mi; 0: never). */
  sharedListMaxChars?: number;
  /** Most answers of /api/quote and /api/trade_volume_usd_7d kept (default 10,000; 0: no cache). */
  answerCacheMaxEntries?: number;
  /** Most bytes those kept answers hold, gzip copies included (default 32 MiB). */
  answerCacheMaxBytes?: number;
  /** Where a list that fails after its first byte is reported. */
  logger?: Logger;
  /**
   * Keeps the rendered bytes of settled hours of /api/swaps_24h (createSwapHourCache): a
   * whole-window list then reads and renders only its two moving ends. Default: none.
   */
  hourCache?: SwapHourCache;
}

const REST_ANSWER = { cache: "rest_answer" };

// Only when a network's status is missing (it is then refused anyway).
const DEFAULT_POLL_MS = 1_000;

/** Response headers a browser script may read (CORS hides non-standard headers otherwise). */
export const EXPOSED_HEADERS = "X-Indexed-Block, X-Data-Age, X-Next-Cursor, Link";

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
const HOUR = 3_600;
// An hour is settled, and its rendering kept, once the indexed data is this far past its end:
// every block of the hour is then indexed (block timestamps follow the clock: none is stamped an
// hour late) and below any reorg the indexer follows (one deeper than the finality depth, minutes
// on every network, halts the network instead, and a network that does not serve drops its kept
// hours). A token's metadata does not change while the process runs, so neither do the bytes.
const SETTLE_SECONDS = 3_600;
// Pieces of a kept hour streamed at a time.
const KEPT_CHUNK_BYTES = 256 * 1024;

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

/** X-Indexed-Block and X-Data-Age of an answer (each only when known). */
function freshnessHeaders(status: FreshnessData["networkStatus"]): Record<string, string> {
  const headers: Record<string, string> = {};
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

// How long a request waits for another one's rendering of the same shareable list.
const SHARED_RENDER_WAIT_MS = 1_000;

const sleep = (ms: number) => delay(ms, undefined, { ref: false });

// Swaps per page of the streamed list: reading, executing and rendering a page costs about 10 µs a
// swap, so 250 keep each turn of the event loop near 3 ms and other requests answered meanwhile.
// Larger pages were no faster: a page's objects then outlive more young-generation collections.
const STREAM_PAGE_SIZE = 250;

/** How long a streamed answer waits for a client that reads nothing before it gives up (default). */
export const STALL_TIMEOUT_MS = 60_000;

/**
 * A byte stream that asks `pieces` for the next piece only when its consumer wants more: no
 * read-ahead (Readable.from keeps pulling while the consumer is paused but its buffer is empty),
 * so a page is read only once the socket took the previous one. Destroying it (client gone)
 * returns the generator.
 */
function pullStream(pieces: AsyncGenerator<Buffer>): Readable {
  return new Readable({
    highWaterMark: 0,
    read() {
      pieces.next().then(
        ({ done, value }) => this.push(done === true ? null : value),
        (error: unknown) => this.destroy(error as Error),
      );
    },
    destroy(error, callback) {
      pieces.return(undefined).then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}

/**
 * Creates the three REST handlers, keyed by path. Each runs fixed GraphQL operations, parsed and
 * compiled once, in-process through the executor (no HTTP hop), and renames the result to the
 * public API's JSON. /api/swaps_24h streams its array page by page, each page's swaps rendered
 * straight to bytes (createSwapRowRenderer); the other two answer in one piece.
 */
export function createRestHandlers(options: RestHandlersOptions): RestRoute[] {
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
  // Shareable lists being rendered now, by key: the requests that miss the kept copy wait here.
  const renderings = new Map<string, Promise<AnswerEntry | undefined>>();
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
    request: FastifyRequest,
    reply: FastifyReply,
    network: NetworkName,
    key: string,
    context: GraphqlSession,
    render: () => Promise<{ value: unknown; networkStatus: FreshnessData["networkStatus"] }>,
  ): Promise<FastifyReply> {
    const { networkStatus } = await run<FreshnessData>(operations.status, { network }, context);
    const serving = networkStatus?.serving === true ? networkStatus : undefined;
    const block = serving?.indexedBlock ?? null;
    const pollIntervalMs = networkStatus?.pollIntervalMs ?? DEFAULT_POLL_MS;
    if (answers !== undefined && block !== null) {
      const kept = answers.get(key);
      if (kept !== undefined && kept.block === block && kept.expiresAt > context.nowMs) {
        countEvent("cache_hits", REST_ANSWER);
        return sendCachedJson(request, reply, kept, {
          headers: freshnessHeaders(networkStatus),
          cacheControl: cacheControl(pollIntervalMs),
        });
      }
    }
    // Errors (400, 422, 503) are thrown here and never kept.
    const rendered = await render();
    const madeAt = rendered.networkStatus?.indexedBlock ?? null;
    const answer = buildCachedJson(rendered.value, `${network}-${madeAt ?? "none"}`);
    if (answers !== undefined && block !== null && madeAt !== null) {
      countEvent("cache_misses", REST_ANSWER);
      answers.set(key, { ...answer, block: madeAt, expiresAt: context.nowMs + pollIntervalMs });
    }
    return sendCachedJson(request, reply, answer, {
      headers: freshnessHeaders(rendered.networkStatus),
      cacheControl: cacheControl(pollIntervalMs),
    });
  }

  function run<T>(
    operation: PreparedOperation,
    variables: Record<string, unknown>,
    session: GraphqlSession,
  ): Promise<T> {
    return session.run<T>(operation, variables);
  }

  // A quote is a function of the network's pools, so of its indexed block.
  const quote: RestRoute["handler"] = async (request, reply) => {
    const query = request.query as { network: NetworkName; sellToken: string; buyToken: string };
    const variables = { network: query.network, sellToken: query.sellToken, buyToken: query.buyToken };
    const key = `quote\n${variables.network}\n${tokenKey(variables.sellToken)}\n${tokenKey(variables.buyToken)}`;
    const context = executor.session();
    return answerCached(request, reply, variables.network, key, context, async () => {
      const data = await run<QuoteData>(operations.quote, variables, context);
      const { network, sellToken, buyToken, price } = data.quote;
      const value = {
        result: { network, sell_token: tokenBody(sellToken), buy_token: tokenBody(buyToken), price },
      };
      return { value, networkStatus: data.networkStatus };
    });
  };

  // Seven days ending today: a function of the indexed block and of the UTC day.
  const tradeVolume7d: RestRoute["handler"] = async (request, reply) => {
    const { network } = request.query as { network: NetworkName };
    const context = executor.session();
    const key = `7d\n${network}\n${Math.floor(context.nowMs / DAY_MS)}`;
    return answerCached(request, reply, network, key, context, async () => {
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
   * indexed state however long the client takes to read it, and memory holds about one page
   * (the stream pulls the next page only when the socket took the last; gzip is the framework's).
   */
  const swaps24h: RestRoute["handler"] = async (request, reply) => {
    const query = request.query as { network: NetworkName; limit?: number; cursor?: string };
    const { network, limit } = query;
    const cursor = readCursor(query.cursor);
    const head = request.method === "HEAD";
    const context = executor.session();
    const { networkStatus } = await run<FreshnessData>(operations.status, { network }, context);
    const window = { network, from: context.now - DAY, atBlock: networkStatus?.indexedBlock ?? null };
    // A whole-window list of a serving network is read hour by hour, settled hours from the disk.
    const hourCache = options.hourCache;
    const hourly =
      hourCache !== undefined &&
      limit === undefined &&
      cursor === undefined &&
      !head &&
      window.atBlock !== null;
    if (hourCache !== undefined && networkStatus?.serving !== true) hourCache.prune(network);
    const hours: number[] = [];
    for (let start = window.from - (window.from % HOUR); start <= context.now; start += HOUR)
      hours.push(start);
    if (hourly) hourCache.prune(network, hours[0]);
    // The end of the indexed data: dataAgeSeconds before now (null: never synced, nothing is settled).
    const indexedUntil =
      networkStatus?.serving === true && networkStatus.dataAgeSeconds !== null
        ? context.now - networkStatus.dataAgeSeconds
        : Number.NEGATIVE_INFINITY;
    const settled = (i: number) => i > 0 && hours[i]! + HOUR + SETTLE_SECONDS <= indexedUntil;
    // Pages of hour i (the first from the window's start, the last with no end).
    const hourWindow = (i: number) => ({
      ...window,
      from: i === 0 ? window.from : hours[i]!,
      to: i === hours.length - 1 ? null : hours[i]! + HOUR,
    });
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
      countEvent("cache_hits", REST_ANSWER);
      return sendCachedJson(request, reply, shared, {
        headers: freshnessHeaders(networkStatus),
        cacheControl: "no-cache",
      });
    }
    // Another request of this block and second is rendering the list: wait for its copy rather
    // than render it again (at the start of every second, every connection would otherwise
    // miss at once). The wait is bounded: a slow client of that request must not hold the rest.
    const rendering =
      shareKey === undefined || head || networkStatus?.serving !== true
        ? undefined
        : renderings.get(shareKey);
    if (rendering !== undefined) {
      const entry = await Promise.race([rendering, sleep(SHARED_RENDER_WAIT_MS)]);
      if (entry !== undefined) {
        countEvent("cache_hits", REST_ANSWER);
        return sendCachedJson(request, reply, entry, {
          headers: freshnessHeaders(networkStatus),
          cacheControl: "no-cache",
        });
      }
    }
    // This request renders the shareable list: the others of its block and second wait for it.
    let settle: ((entry: AnswerEntry | undefined) => void) | undefined;
    if (shareKey !== undefined && !head && networkStatus?.serving === true && !renderings.has(shareKey)) {
      const key = shareKey;
      const mine = new Promise<AnswerEntry | undefined>((resolve) => (settle = resolve));
      renderings.set(key, mine);
      // However it ends (complete, too large to keep, an error answer, client gone), the wait ends.
      reply.raw.once("close", () => {
        settle?.(undefined);
        if (renderings.get(key) === mine) renderings.delete(key);
      });
    }

    const readPage = (first: number, after: string | null, bounds: object = { ...window, to: null }) =>
      run<SwapsData>(operations.swaps, { ...bounds, first, after }, context);

    // The first page is read before any byte goes out: bad parameters and unready networks
    // still get their JSON error answers. HEAD reads one row for that and no page.
    const first = hourly
      ? await readPage(pageSize, null, hourWindow(0))
      : await readPage(head ? 1 : Math.min(pageSize, limit ?? pageSize), cursor ?? null);
    // The body size is unknown when the headers go out: gzip whenever the client takes it.
    // (Lowercase: the compressor adds its own Vary unless it finds this one.)
    reply.headers({ ...JSON_HEADERS, ...freshnessHeaders(networkStatus), Vary: "accept-encoding" });
    if (head) {
      // The GET's headers as they are: chunked, no Content-Length (the framework would say 0).
      if (acceptsGzip(request.headers["accept-encoding"])) reply.header("Content-Encoding", "gzip");
      reply.hijack();
      reply.raw.writeHead(200, reply.getHeaders() as OutgoingHttpHeaders);
      reply.raw.end();
      return reply;
    }
    if (limit !== undefined) {
      const next = await findNextCursor(first, limit, window, context);
      if (next !== undefined) {
        reply.header("X-Next-Cursor", next);
        const link = new URLSearchParams({ network, limit: String(limit), cursor: next });
        reply.header("Link", `</api/swaps_24h?${link}>; rel="next"`);
      }
    }

    async function* pieces(): AsyncGenerator<Buffer> {
      let page = first;
      let remaining = limit ?? Number.POSITIVE_INFINITY;
      // The bytes of the old one-piece answer, JSON.stringify(array), page by page.
      const renderer = createSwapRowRenderer();
      for (;;) {
        const { edges, pageInfo } = page.swaps;
        remaining -= edges.length;
        const last = !pageInfo.hasNextPage || remaining <= 0;
        yield renderer.render(edges, last);
        if (last) break;
        // A fast client drains at once: without this turn, one download would keep the event
        // loop through many pages while other requests wait.
        await new Promise((resolve) => setImmediate(resolve));
        page = await readPage(Math.min(pageSize, remaining), pageInfo.endCursor);
      }
    }

    /** Passes the pieces on, keeping them while the answer stays small enough to share. */
    async function* keptWhileSmall(source: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
      let kept: Buffer[] | undefined = shareKey === undefined ? undefined : [];
      let keptLength = 0;
      for await (const piece of source) {
        if (kept !== undefined) {
          keptLength += piece.length;
          if (keptLength > shareMaxChars) kept = undefined;
          else kept.push(piece);
        }
        yield piece;
      }
      if (kept !== undefined && shareKey !== undefined && window.atBlock !== null) {
        const built = buildCachedJson(Buffer.concat(kept), `${network}-${window.atBlock}`);
        const entry = { ...built, block: window.atBlock, expiresAt: (context.now + 1) * 1000 };
        answers?.set(shareKey, entry);
        settle?.(entry);
      }
    }

    /**
     * The whole window hour by hour: a settled hour kept on disk is streamed from its file, any
     * other hour is read in pages and rendered (a settled one also written to disk, and kept
     * once complete). The pages of an hour follow each other as the list's pages do.
     */
    async function* hourlyPieces(cache: SwapHourCache): AsyncGenerator<Buffer> {
      const renderer = createSwapRowRenderer();
      let page: SwapsData | undefined = first;
      for (let i = 0; i < hours.length; i++) {
        const kept = settled(i) ? cache.get(network, hours[i]!) : undefined;
        // A kept file that cannot be opened is rendered again instead.
        const file = kept === undefined ? undefined : await cache.open(kept, KEPT_CHUNK_BYTES, 1);
        if (kept !== undefined && file !== undefined) {
          const separator = renderer.join(kept.rows);
          let sent = false;
          for await (const chunk of file) {
            // The first piece has one byte free for the separator ("[", a comma, or nothing).
            const buffer = sent ? chunk.buffer : chunk.buffer.subarray(1 - separator.length);
            const end = sent ? chunk.end : chunk.end - 1 + separator.length;
            if (!sent) separator.copy(buffer, 0);
            sent = true;
            yield buffer.subarray(0, end);
          }
          if (!sent && separator.length > 0) yield separator;
          continue;
        }
        const writer = settled(i) ? cache.write(network, hours[i]!) : undefined;
        try {
          let after: string | null = null;
          for (;;) {
            page ??= await readPage(pageSize, after, hourWindow(i));
            const { edges, pageInfo } = page.swaps;
            const { piece, elements } = renderer.renderElements(edges);
            writer?.append(elements, edges.length);
            if (piece.length > 0) yield piece;
            page = undefined;
            if (!pageInfo.hasNextPage) break;
            after = pageInfo.endCursor;
            // As in pieces(): other requests get their turn between pages.
            await new Promise((resolve) => setImmediate(resolve));
          }
          writer?.commit();
        } finally {
          // A list cut off (error, client gone) keeps nothing of the hour it was in.
          writer?.abort();
        }
      }
      yield renderer.render([], true);
    }

    // Bytes went out before a later page failed: a truncated body (the socket is destroyed) is
    // the only honest signal left to the client; the log says why.
    async function* reported(): AsyncGenerator<Buffer> {
      try {
        yield* keptWhileSmall(hourly && hourCache !== undefined ? hourlyPieces(hourCache) : pieces());
      } catch (error) {
        options.logger?.error({ err: error, route: "/api/swaps_24h" }, "list failed after its first byte");
        throw error;
      }
    }

    // A client that reads nothing leaves the socket idle: it is cut off after the stall timeout
    // (it would hold a socket and a page forever). Either way the generator is returned: no
    // page is read after the client is gone.
    const res = reply.raw;
    const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
    const gone = (reason: string) =>
      options.logger?.debug({ route: "/api/swaps_24h", reason }, "client gone");
    let stalled = false;
    res.setTimeout(stallMs, () => {
      stalled = true;
      gone(`The client read nothing for ${stallMs} ms.`);
      res.destroy();
    });
    res.once("finish", () => res.setTimeout(0));
    res.once("close", () => {
      if (!res.writableFinished && !stalled)
        gone("The client closed the connection before the answer was complete.");
    });
    return reply.send(pullStream(reported()));
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

  return [
    { path: "/api/quote", querySchema: QUOTE_QUERY_SCHEMA, ownCompression: true, handler: quote },
    // A shared small list is a kept answer too; a streamed one is gzipped on the way out.
    // Level 1 gzips a list about twice as fast as the default, for some 15% more bytes: at the
    // default level, gzip cost a streamed list more than everything else together.
    {
      path: "/api/swaps_24h",
      querySchema: SWAPS_QUERY_SCHEMA,
      ownCompression: false,
      gzipLevel: 1,
      handler: swaps24h,
    },
    {
      path: "/api/trade_volume_usd_7d",
      querySchema: VOLUMES_QUERY_SCHEMA,
      ownCompression: true,
      handler: tradeVolume7d,
    },
  ];
}
