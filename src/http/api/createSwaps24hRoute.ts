import type { Logger } from "pino";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import type { GraphqlExecutor } from "../../graphql/createGraphqlExecutor.js";
import { countEvent } from "../../lib/countEvent.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { SwapHourCache } from "../../views/answers/createSwapHourCache.js";
import { streamSwapHours } from "../../views/answers/streamSwapHours.js";
import { streamSwapPages } from "../../views/answers/streamSwapPages.js";
import { HOUR, hoursOf, isSettledHour } from "../../views/answers/swapHours.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "../sendCachedJson.js";
import { sendListStream } from "../sendListStream.js";
import { answerStreamHead } from "./answerStreamHead.js";
import { findNextCursor } from "./findNextCursor.js";
import { readCursor } from "./readCursor.js";
import type { FreshnessData, RestOperations, SwapsData } from "./restOperations.js";
import type { RestRoute } from "./restRoute.js";
import { SWAPS_QUERY_SCHEMA } from "./restSchemas.js";

/** Options of createSwaps24hRoute. */
export interface Swaps24hOptions {
  executor: GraphqlExecutor;
  operations: RestOperations;
  /** Where small whole-window lists are kept and shared (absent: none is). */
  answers?: AnswerStore;
  /** Swaps per GraphQL page while the list streams (1..1000, default 250). */
  pageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window answer kept and shared within its block and second (bytes, default 4 Mi; 0: never). */
  sharedListMaxChars?: number;
  /** Keeps the rendered bytes of settled hours (createSwapHourCache). Default: none. */
  hourCache?: SwapHourCache;
  /** Where a list that fails after its first byte is reported. */
  logger?: Logger;
}

const DAY = 86_400;
// A whole-window answer up to this size (about 8,000 swaps) is kept and shared by the requests
// of the same indexed block and second; larger ones are streamed for each request.
const SHARED_LIST_MAX_CHARS = 4 * 1024 * 1024;

// Swaps per page of the streamed list: reading, executing and rendering a page costs about 10 µs a
// swap, so 250 keep each turn of the event loop near 3 ms and other requests answered meanwhile.
// Larger pages were no faster: a page's objects then outlive more young-generation collections.
export const STREAM_PAGE_SIZE = 250;

/** How long a streamed answer waits for a client that reads nothing before it gives up (default). */
export const STALL_TIMEOUT_MS = 60_000;

const REST_ANSWER = { cache: "rest_answer" };

/**
 * GET /api/swaps_24h: the whole window as one JSON array, written while the pages are read:
 * every page is pinned to the block indexed when the request started (and to one clock), so the
 * array is one indexed state however long the client takes to read it, and memory holds about
 * one page (the stream pulls the next page only when the socket took the last; gzip is the
 * framework's). `limit` and `cursor` page it instead.
 */
export function createSwaps24hRoute(options: Swaps24hOptions): RestRoute {
  const { executor, operations, hourCache } = options;
  const pageSize = options.pageSize ?? STREAM_PAGE_SIZE;
  const shareMaxChars = options.sharedListMaxChars ?? SHARED_LIST_MAX_CHARS;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }
  const { answers } = options;
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;

  const handler: RestRoute["handler"] = async (request, reply) => {
    const query = request.query as { network: NetworkName; limit?: number; cursor?: string };
    const { network, limit } = query;
    const cursor = readCursor(query.cursor);
    const head = request.method === "HEAD";
    const session = executor.session();
    const { networkStatus } = await session.run<FreshnessData>(operations.status, { network });
    const serving = networkStatus?.serving === true;
    const window = { network, from: session.now - DAY, atBlock: networkStatus?.indexedBlock ?? null };
    const whole = limit === undefined && cursor === undefined;
    // A whole-window list of a serving network is read hour by hour, settled hours from the disk.
    const hourly = hourCache !== undefined && whole && !head && window.atBlock !== null;
    if (hourCache !== undefined && !serving) hourCache.prune(network);
    const hours = hoursOf(window.from, session.now);
    if (hourly) hourCache.prune(network, hours[0]);
    // The end of the indexed data: dataAgeSeconds before now (null: never synced, nothing is settled).
    const indexedUntil =
      serving && networkStatus.dataAgeSeconds !== null
        ? session.now - networkStatus.dataAgeSeconds
        : Number.NEGATIVE_INFINITY;
    // Pages of hour i (the first from the window's start, the last with no end).
    const hourWindow = (i: number) => ({
      ...window,
      from: i === 0 ? window.from : hours[i]!,
      to: i === hours.length - 1 ? null : hours[i]! + HOUR,
    });
    // A whole-window answer is a function of (network, indexed block, window start): when it is
    // small, the requests of that second share one rendering instead of each executing it. Only
    // a network that serves now may answer from the shared copy (staleness, halts); the window
    // moves every second, so clients get no max-age, only a validator for that block and second.
    const shared =
      answers !== undefined && whole && shareMaxChars > 0 && window.atBlock !== null && serving
        ? { key: `swaps\n${network}\n${window.atBlock}\n${window.from}`, block: window.atBlock }
        : undefined;
    const nowMs = session.now * 1000;
    const kept =
      shared === undefined
        ? undefined
        : head
          ? answers?.get<CachedJson>(shared.key, shared.block, nowMs)
          : await answers?.find<CachedJson>(shared.key, shared.block, nowMs);
    if (kept !== undefined) {
      countEvent("cache_hits", REST_ANSWER);
      return sendCachedJson(request, reply, kept, {
        headers: freshnessHeaders(networkStatus),
        cacheControl: "no-cache",
      });
    }
    // This request makes the shareable list: the others of its block and second wait for it.
    const making =
      shared === undefined || head ? undefined : answers?.make(shared.key, shared.block, reply.raw);

    const readPage = (first: number, after: string | null, bounds: object = { ...window, to: null }) =>
      session.run<SwapsData>(operations.swaps, { ...bounds, first, after });
    // The first page is read before any byte goes out: bad parameters and unready networks
    // still get their JSON error answers. HEAD reads one row for that and no page.
    const first = hourly
      ? await readPage(pageSize, null, hourWindow(0))
      : await readPage(head ? 1 : Math.min(pageSize, limit ?? pageSize), cursor ?? null);
    // (Lowercase: the compressor adds its own Vary unless it finds this one.)
    reply.headers({ ...JSON_HEADERS, ...freshnessHeaders(networkStatus), Vary: "accept-encoding" });
    if (head) return answerStreamHead(request, reply);
    if (limit !== undefined) {
      const next = await findNextCursor(first, limit, window, session, operations);
      if (next !== undefined) {
        reply.header("X-Next-Cursor", next);
        const link = new URLSearchParams({ network, limit: String(limit), cursor: next });
        reply.header("Link", `</api/swaps_24h?${link}>; rel="next"`);
      }
    }
    const pieces =
      hourly && hourCache !== undefined
        ? streamSwapHours(hourCache, {
            network,
            hours,
            first,
            settled: (i) => i > 0 && isSettledHour(hours[i]!, indexedUntil),
            readPage: (i, after) => readPage(pageSize, after, hourWindow(i)),
          })
        : streamSwapPages({ first, limit, pageSize, readPage: (size, after) => readPage(size, after) });
    const body =
      making === undefined || shared === undefined
        ? pieces
        : making.keepWhileSmall(pieces, {
            maxBytes: shareMaxChars,
            expiresAtMs: nowMs + 1000,
            build: (bytes) => buildCachedJson(bytes, `${network}-${shared.block}`),
          });
    return sendListStream(reply, body, { stallMs, logger: options.logger });
  };
  return {
    path: "/api/swaps_24h",
    querySchema: SWAPS_QUERY_SCHEMA,
    // A shared small list is a kept answer too; a streamed one is gzipped on the way out.
    // Level 1 gzips a list about twice as fast as the default, for some 15% more bytes: at the
    // default level, gzip cost a streamed list more than everything else together.
    ownCompression: false,
    list: true,
    gzipLevel: 1,
    handler,
  };
}
