import type { Logger } from "pino";
import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import { openSwapExport } from "../../views/answers/openSwapExport.js";
import type { MarketReader } from "../../views/types.js";
import { freshnessHeaders } from "../freshnessHeaders.js";
import { sendListStream } from "../sendListStream.js";
import { answerStreamHead } from "./answerStreamHead.js";
import { STALL_TIMEOUT_MS } from "./createSwaps24hRoute.js";
import type { RestRoute } from "./restRoute.js";

/** Options of createSwapsExportRoute. */
export interface SwapsExportOptions {
  reader: MarketReader;
  /** Swaps per page read while the export streams (1..1000, default 1,000). */
  pageSize?: number | undefined;
  /** How long the export waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number | undefined;
  /** Where an export that fails after its first byte is reported. */
  logger?: Logger | undefined;
}

/** The media type of the export: one JSON object per line (NDJSON). */
const NDJSON_TYPE = "application/x-ndjson; charset=utf-8";

const ROUTE = "/api/swaps_export";

/**
 * GET /api/swaps_export: every stored swap of a network with from <= timestamp < to, as NDJSON
 * (the /api/swaps_24h row with log_index, timestamp, sender, tracked and pools; one line a
 * swap, ascending by block then position), for bulk readers. It is the swap list's read path
 * (openSwapExport): keyset pages pinned to the block indexed at the request's start (or `atBlock`
 * below it), rendered by the list's renderer and pulled one page at a time as the socket drains,
 * so memory holds about one page whatever the window's size and one indexed state is exported
 * however long the client reads.
 */
export function createSwapsExportRoute(options: SwapsExportOptions): RestRoute {
  const { reader } = options;
  // The largest keyset page: every page read has a fixed cost (the read's setup, a turn of the
  // event loop, the pull from the socket) that 250-swap pages paid four times as often.
  const pageSize = options.pageSize ?? MAX_SWAPS_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_SWAPS_PAGE) {
    throw new RangeError(`swapsPageSize must be an integer from 1 to ${MAX_SWAPS_PAGE}.`);
  }
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;

  const handler: RestRoute["handler"] = async (request, reply) => {
    const query = request.query as { network: NetworkName; from: string; to?: string; atBlock?: string };
    const head = request.method === "HEAD";
    const { network } = query;
    const rows = await openSwapExport(reader, network, { ...query, nowMs: Date.now(), head }, pageSize);
    reply.headers({
      "Content-Type": NDJSON_TYPE,
      ...freshnessHeaders(rows.networkStatus),
      Vary: "accept-encoding",
    });
    if (rows.atBlock !== null) reply.header("X-Indexed-Block", rows.atBlock);
    if (rows.pieces === undefined) return answerStreamHead(request, reply);
    return sendListStream(reply, rows.pieces, { stallMs, logger: options.logger, route: ROUTE });
  };
  return {
    path: ROUTE,
    operationId: "exportSwaps",
    ownCompression: false,
    // As /api/swaps_24h: level 1 gzips a list about twice as fast as the default.
    gzipLevel: 1,
    handler,
  };
}
