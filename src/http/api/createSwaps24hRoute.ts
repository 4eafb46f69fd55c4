import type { Logger } from "pino";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import { countEvent } from "../../lib/countEvent.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { SettledSwapHours } from "../../views/answers/createSettledSwapHours.js";
import { STREAM_PAGE_SIZE } from "../../views/answers/createSwapPageReader.js";
import { openSwaps24h } from "../../views/answers/openSwaps24h.js";
import type { MarketReader } from "../../views/types.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { buildCachedJson, type CachedJson, sendCachedJson } from "../sendCachedJson.js";
import { sendListStream } from "../sendListStream.js";
import { answerStreamHead } from "./answerStreamHead.js";
import { readCursor } from "./readCursor.js";
import type { RestRoute } from "./restRoute.js";

/** Options of createSwaps24hRoute. */
export interface Swaps24hOptions {
  reader: MarketReader;
  /** Where small whole-window lists are kept and shared (absent: none is). */
  answers?: AnswerStore | undefined;
  /** Swaps per page read while the list streams (1..1000, default 250). */
  pageSize?: number | undefined;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number | undefined;
  /** Largest whole-window answer kept and shared within its block and second (bytes, default 4 Mi; 0: never). */
  sharedListMaxChars?: number | undefined;
  /** The settled hours the read model keeps rendered (createSettledSwapHours). Default: none. */
  hours?: SettledSwapHours | undefined;
  /** Where a list that fails after its first byte is reported. */
  logger?: Logger | undefined;
}

// A whole-window answer up to this size (about 8,000 swaps) is kept and shared by the requests
// of the same indexed block and second; larger ones are streamed for each request.
const SHARED_LIST_MAX_CHARS = 4 * 1024 * 1024;

/** How long a streamed answer waits for a client that reads nothing before it gives up (default). */
export const STALL_TIMEOUT_MS = 60_000;

const REST_ANSWER = { cache: "rest_answer" };

/**
 * GET /api/swaps_24h: the whole window as one JSON array, written while the pages are read
 * (openSwaps24h: every page pinned to the block indexed when the request started, settled hours
 * from the disk), so the array is one indexed state however long the client takes to read it,
 * and memory holds about one page (the stream pulls the next page only when the socket took the
 * last; gzip is the framework's). `limit` and `cursor` page it instead.
 */
export function createSwaps24hRoute(options: Swaps24hOptions): RestRoute {
  const { reader, answers, hours } = options;
  const pageSize = options.pageSize ?? STREAM_PAGE_SIZE;
  const shareMaxChars = options.sharedListMaxChars ?? SHARED_LIST_MAX_CHARS;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;

  const handler: RestRoute["handler"] = async (request, reply) => {
    const query = request.query as { network: NetworkName; limit?: number; cursor?: string };
    const { network, limit } = query;
    const cursor = readCursor(query.cursor);
    const head = request.method === "HEAD";
    const nowMs = Date.now();
    const list = openSwaps24h(reader, network, { nowMs, pageSize, hours });
    // A whole-window answer is a function of (network, indexed block, window start): when it is
    // small, the requests of that second share one rendering instead of each making it. Only a
    // network that serves now may answer from the shared copy (staleness, halts); the window
    // moves every second, so clients get no max-age, only a validator for that block and second.
    const shared =
      answers !== undefined &&
      limit === undefined &&
      cursor === undefined &&
      shareMaxChars > 0 &&
      list.atBlock !== null &&
      list.serving
        ? { key: `swaps\n${network}\n${list.atBlock}\n${list.from}`, block: list.atBlock }
        : undefined;
    const kept =
      shared === undefined
        ? undefined
        : head
          ? answers?.get<CachedJson>(shared.key, shared.block, nowMs)
          : await answers?.find<CachedJson>(shared.key, shared.block, nowMs);
    if (kept !== undefined) {
      countEvent("cache_hits", REST_ANSWER);
      return sendCachedJson(request, reply, kept, {
        headers: freshnessHeaders(list.networkStatus),
        cacheControl: "no-cache",
      });
    }
    // This request makes the shareable list: the others of its block and second wait for it.
    const making =
      shared === undefined || head ? undefined : answers?.make(shared.key, shared.block, reply.raw);
    const { nextCursor, pieces } = await list.read({ limit, cursor, head });
    // (Lowercase: the compressor adds its own Vary unless it finds this one.)
    reply.headers({ ...JSON_HEADERS, ...freshnessHeaders(list.networkStatus), Vary: "accept-encoding" });
    if (pieces === undefined) return answerStreamHead(request, reply);
    if (nextCursor !== undefined) {
      reply.header("X-Next-Cursor", nextCursor);
      const link = new URLSearchParams({ network, limit: String(limit), cursor: nextCursor });
      reply.header("Link", `</api/swaps_24h?${link}>; rel="next"`);
    }
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
    operationId: "listSwaps24h",
    // A shared small list is a kept answer too; a streamed one is gzipped on the way out.
    // Level 1 gzips a list about twice as fast as the default, for some 15% more bytes: at the
    // default level, gzip cost a streamed list more than everything else together.
    ownCompression: false,
    list: true,
    gzipLevel: 1,
    handler,
  };
}
