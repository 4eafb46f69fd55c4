import { parseTimestamp } from "../../api/parseTimestamp.js";
import type { NetworkName } from "../../domain/types.js";
import { type AnswerFreshness, servingStatus } from "./answerFreshness.js";
import { createSwapPageReader, type SwapListReader } from "./createSwapPageReader.js";
import { createSwapRowRenderer } from "./createSwapRowRenderer.js";
import { streamSwapPages } from "./streamSwapPages.js";

/** The /api/swaps_export rows of one request (see openSwapExport). */
export interface SwapExport {
  /** The freshness the answer carries (X-Indexed-Block, X-Data-Age); null for a network not configured here. */
  networkStatus: AnswerFreshness | null;
  /** The block every page is read at (null: none indexed and none asked). */
  atBlock: string | null;
  /** The NDJSON lines, read as they are pulled (undefined for HEAD). */
  pieces: AsyncGenerator<Buffer> | undefined;
}

/**
 * Opens GET /api/swaps_export's rows at `nowMs`: every stored swap of the network with
 * from <= timestamp < to, one NDJSON line each (the /api/swaps_24h row with log_index, timestamp,
 * sender, tracked and pools), pinned to the block indexed now or to `atBlock` below it, read in
 * keyset pages of `pageSize` as they are pulled. The first page is read here: a window that is not
 * a time (400), that ends before it starts (400), or a network that does not serve (503) throws
 * before any byte; HEAD (`head`) reads one row for that and no page.
 */
export async function openSwapExport(
  reader: SwapListReader,
  network: NetworkName,
  args: { from: string; to?: string | undefined; atBlock?: string | undefined; nowMs: number; head: boolean },
  pageSize: number,
): Promise<SwapExport> {
  const status = servingStatus(reader, network, args.nowMs);
  const indexed = status?.indexedBlock ?? null;
  // Never past the indexed block: a later one would not be one state.
  const atBlock =
    args.atBlock === undefined || (indexed !== null && BigInt(args.atBlock) > BigInt(indexed))
      ? indexed
      : args.atBlock;
  const bounds = {
    from: parseTimestamp(args.from),
    to: args.to === undefined ? null : parseTimestamp(args.to),
    atBlock: atBlock === null ? undefined : BigInt(atBlock),
  };
  const readPage = createSwapPageReader(reader, network, args.nowMs);
  const first = await readPage(bounds, args.head ? 1 : pageSize, null);
  const networkStatus =
    status === null ? null : { indexedBlock: status.indexedBlock, dataAgeSeconds: status.dataAgeSeconds };
  if (args.head) return { networkStatus, atBlock, pieces: undefined };
  const pieces = streamSwapPages({
    first,
    limit: undefined,
    pageSize,
    readPage: (size, after) => readPage(bounds, size, after),
    renderer: createSwapRowRenderer({ ndjson: true }),
  });
  return { networkStatus, atBlock, pieces };
}
