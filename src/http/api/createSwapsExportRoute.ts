import type { FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import type { GraphqlExecutor } from "../../graphql/createGraphqlExecutor.js";
import { createSwapRowRenderer } from "../../views/answers/createSwapRowRenderer.js";
import { streamSwapPages } from "../../views/answers/streamSwapPages.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { sendListStream } from "../sendListStream.js";
import { answerStreamHead } from "./answerStreamHead.js";
import { STALL_TIMEOUT_MS } from "./createSwaps24hRoute.js";
import type { ExportData, FreshnessData, RestOperations } from "./restOperations.js";
import type { RestRoute } from "./restRoute.js";
import { EXPORT_QUERY_SCHEMA } from "./restSchemas.js";

/** Options of createSwapsExportRoute. */
export interface SwapsExportOptions {
  executor: GraphqlExecutor;
  operations: RestOperations;
  /** Swaps per GraphQL page while the export streams (1..1000, default 1,000). */
  pageSize?: number;
  /** How long the export waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Where an export that fails after its first byte is reported. */
  logger?: Logger;
}

/** The media type of the export: one JSON object per line (NDJSON). */
const NDJSON_TYPE = "application/x-ndjson; charset=utf-8";

const ROUTE = "/api/swaps_export";

/**
 * GET /api/swaps_export: every stored swap of a network with from <= timestamp < to, as NDJSON
 * (the /api/swaps_24h row with log_index, timestamp, sender, tracked and pools; one line a
 * swap, ascending by block then position), for bulk readers. It is the swap list's read path:
 * the same GraphQL `swaps` pages through the in-process executor, rendered by the list's
 * renderer, pinned to the block indexed at the request's start (or `atBlock` below it), pulled
 * one keyset page at a time as the socket drains, so memory holds about one page whatever the
 * window's size and one indexed state is exported however long the client reads.
 */
export function createSwapsExportRoute(options: SwapsExportOptions): RestRoute {
  const { executor, operations } = options;
  // The largest keyset page: every page read has a fixed cost (the read's setup, a turn of the
  // event loop, the pull from the socket) that 250-swap pages paid four times as often.
  const pageSize = options.pageSize ?? MAX_SWAPS_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const query = request.query as { network: NetworkName; from: string; to?: string; atBlock?: string };
    const { network } = query;
    const session = executor.session();
    const { networkStatus } = await session.run<FreshnessData>(operations.status, { network });
    const indexed = networkStatus?.indexedBlock ?? null;
    // Never past the indexed block: a later one would not be one state.
    const atBlock =
      query.atBlock === undefined || (indexed !== null && BigInt(query.atBlock) > BigInt(indexed))
        ? indexed
        : query.atBlock;
    const bounds = { network, from: query.from, to: query.to ?? null, atBlock };
    const readPage = (first: number, after: string | null) =>
      session.run<ExportData>(operations.export, { ...bounds, first, after });
    // The first page is read before any byte goes out: a bad window or an unready network
    // still gets its JSON error answer.
    const head = request.method === "HEAD";
    const first = await readPage(head ? 1 : pageSize, null);
    reply.headers({
      "Content-Type": NDJSON_TYPE,
      ...freshnessHeaders(networkStatus),
      Vary: "accept-encoding",
    });
    if (atBlock !== null) reply.header("X-Indexed-Block", atBlock);
    if (head) return answerStreamHead(request, reply);
    const pieces = streamSwapPages({
      first,
      limit: undefined,
      pageSize,
      readPage,
      renderer: createSwapRowRenderer({ ndjson: true }),
    });
    return sendListStream(reply, pieces, { stallMs, logger: options.logger, route: ROUTE });
  };
  return {
    path: ROUTE,
    querySchema: EXPORT_QUERY_SCHEMA,
    ownCompression: false,
    // As /api/swaps_24h: level 1 gzips a list about twice as fast as the default.
    gzipLevel: 1,
    handler,
  };
}
