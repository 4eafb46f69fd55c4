import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import { boundEventCount } from "../../lib/countEvent.js";
import { createServingStatusKeeper, type ServingStatus } from "../../views/answers/answerFreshness.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { SettledSwapHours } from "../../views/answers/createSettledSwapHours.js";
import { STREAM_PAGE_SIZE } from "../../views/answers/createSwapPageReader.js";
import { openSwaps24h, swaps24hFrom } from "../../views/answers/openSwaps24h.js";
import type { MarketReader } from "../../views/types.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import {
  buildCachedJson,
  type CachedJson,
  type SendCachedJsonOptions,
  sendCachedJson,
} from "../sendCachedJson.js";
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

interface Swaps24hQuery {
  network: NetworkName;
  limit?: number;
  cursor?: string;
}

// The answer store's key of a whole window: its network, indexed block and start.
function sharedKey(network: NetworkName, block: string, from: number): string {
  return `swaps\n${network}\n${block}\n${from}`;
}

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

  const statusOf = createServingStatusKeeper(reader);
  const countHit = boundEventCount("cache_hits", REST_ANSWER);
  // What a network's shared answer is sent with: made once per status (block, age, serving), not per request.
  const sent = new Map<NetworkName, { status: ServingStatus; options: SendCachedJsonOptions }>();
  function sendOptionsOf(network: NetworkName, status: ServingStatus): SendCachedJsonOptions {
    let last = sent.get(network);
    if (last?.status !== status) {
      last = { status, options: { headers: freshnessHeaders(status), cacheControl: "no-cache" } };
      sent.set(network, last);
    }
    return last.options;
  }

  // The list made (or, while another request of its block and second makes it, waited for) and streamed.
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    query: Swaps24hQuery,
    nowMs: number,
    status: ServingStatus | null,
  ): Promise<FastifyReply> {
    const { network, limit } = query;
    const cursor = readCursor(query.cursor);
    const head = request.method === "HEAD";
    const list = openSwaps24h(reader, network, { nowMs, pageSize, hours, status });
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
        ? { key: sharedKey(network, list.atBlock, list.from), block: list.atBlock }
        : undefined;
    // (HEAD never makes the list, so it waits for no making either.)
    const kept =
      shared === undefined || head
        ? undefined
        : await answers?.find<CachedJson>(shared.key, shared.block, nowMs);
    if (kept !== undefined && status !== null) {
      countHit();
      return sendCachedJson(request, reply, kept, sendOptionsOf(query.network, status));
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
  }

  // A whole window kept for this block and second is sent synchronously (nothing opened, no
  // promise); anything else is made, or waited for, above.
  const handler: RestRoute["handler"] = (request, reply) => {
    const query = request.query as Swaps24hQuery;
    const nowMs = Date.now();
    const status = statusOf(query.network, nowMs);
    if (
      answers !== undefined &&
      shareMaxChars > 0 &&
      query.limit === undefined &&
      query.cursor === undefined &&
      status?.serving === true &&
      status.indexedBlock !== null
    ) {
      const block = status.indexedBlock;
      const kept = answers.get<CachedJson>(
        sharedKey(query.network, block, swaps24hFrom(nowMs)),
        block,
        nowMs,
      );
      if (kept !== undefined) {
        countHit();
        sendCachedJson(request, reply, kept, sendOptionsOf(query.network, status));
        return undefined;
      }
    }
    return answer(request, reply, query, nowMs, status);
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
