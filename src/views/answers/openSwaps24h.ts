import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { NetworkName } from "../../domain/types.js";
import { listSwaps } from "../listSwaps.js";
import { type AnswerFreshness, type ServingStatus, servingStatus } from "./answerFreshness.js";
import type { SettledSwapHours } from "./createSettledSwapHours.js";
import type { KeptHour } from "./createSwapHourCache.js";
import { createSwapPageReader, type SwapBounds, type SwapListReader } from "./createSwapPageReader.js";
import { type SwapRun, streamSwapHours } from "./streamSwapHours.js";
import { streamSwapPages } from "./streamSwapPages.js";
import { HOUR, hoursOf } from "./swapHours.js";
import type { SwapPage } from "./swapRow.js";

const DAY = 86_400;

/** Swaps of [from, to) read from the store (to null: no end). */
type Stretch = { from: number; to: number | null };

/** The /api/swaps_24h list of one request, pinned to the block indexed when it started. */
export interface Swaps24h {
  /** The freshness the answer carries (X-Indexed-Block, X-Data-Age); null for a network not configured here. */
  networkStatus: AnswerFreshness | null;
  /** Whether the network serves at the request's instant (only then may a whole window be shared). */
  serving: boolean;
  /** The block every page is read at (null: none indexed yet). */
  atBlock: string | null;
  /** The window's start (unix seconds): the last 24 hours of the request's instant. */
  from: number;
  /**
   * Reads the first page, so that bad parameters and a network that does not serve throw their
   * errors before any byte goes out, and the next cursor of a limited list; HEAD (`head`) reads one
   * row for that and no page. The pieces are the list's bytes, read as they are pulled.
   */
  read(args: {
    limit?: number | undefined;
    cursor?: string | undefined;
    head: boolean;
  }): Promise<{ nextCursor: string | undefined; pieces: AsyncGenerator<Buffer> | undefined }>;
}

/** The start of the 24-hour window of `nowMs` (unix seconds). */
export function swaps24hFrom(nowMs: number): number {
  return Math.floor(nowMs / 1000) - DAY;
}

/**
 * Opens GET /api/swaps_24h's list at `nowMs`: the views' status now (the freshness and the pinned
 * block), then pages of `pageSize` swaps at that block, one indexed state however long the client
 * reads. A whole window reads the hours `hours` keeps from the disk and the rest from the store
 * (the window's start, the moving end, any hour not kept).
 */
export function openSwaps24h(
  reader: SwapListReader,
  network: NetworkName,
  options: {
    nowMs: number;
    pageSize: number;
    hours?: SettledSwapHours | undefined;
    /** The network's status at `nowMs`, when the caller has it (default: read from `reader`). */
    status?: ServingStatus | null;
  },
): Swaps24h {
  const { nowMs, pageSize, hours } = options;
  const status = options.status === undefined ? servingStatus(reader, network, nowMs) : options.status;
  const now = Math.floor(nowMs / 1000);
  const from = swaps24hFrom(nowMs);
  const atBlock = status?.indexedBlock ?? null;
  const window: Stretch = { from, to: null };

  return {
    // (A ServingStatus is an AnswerFreshness: the status itself, nothing made per request.)
    networkStatus: status,
    serving: status?.serving === true,
    atBlock,
    from,
    async read({ limit, cursor, head }) {
      // Made when the list is read: a request answered from a shared copy never needs it.
      const pinned = atBlock === null ? undefined : BigInt(atBlock);
      const pageReader = createSwapPageReader(reader, network, nowMs);
      const readPage = (run: Stretch, first: number, after: string | null) =>
        pageReader({ ...run, atBlock: pinned }, first, after);
      if (head) {
        await readPage(window, 1, cursor ?? null);
        return { nextCursor: undefined, pieces: undefined };
      }
      if (hours !== undefined && pinned !== undefined && limit === undefined && cursor === undefined) {
        const [start, ...rest] = runsOf(hoursOf(from, now), from, (hour) =>
          hours.find(network, hour, pinned),
        );
        const first = await readPage(start, pageSize, null);
        const pieces = streamSwapHours({
          runs: [start, ...rest],
          first,
          open: hours.open,
          readPage: (run, after) => readPage(run, pageSize, after),
        });
        return { nextCursor: undefined, pieces };
      }
      const first = await readPage(window, Math.min(pageSize, limit ?? pageSize), cursor ?? null);
      const bounds = { ...window, atBlock: pinned };
      return {
        nextCursor:
          limit === undefined
            ? undefined
            : await findNextCursor(reader, network, bounds, first, limit, nowMs),
        pieces: streamSwapPages({
          first,
          limit,
          pageSize,
          readPage: (size, after) => readPage(window, size, after),
        }),
      };
    },
  };
}

/**
 * The window [from, ...) as runs: a stretch from its start read from the store, then each kept
 * hour (never the first, which holds the window's start) and the stretches between them; the last
 * stretch has no end.
 */
function runsOf(
  hours: readonly number[],
  from: number,
  kept: (start: number) => KeptHour | undefined,
): [Stretch, ...SwapRun[]] {
  const runs: SwapRun[] = [];
  let stretch: number | undefined = from;
  for (const start of hours.slice(1)) {
    const hour = kept(start);
    if (hour === undefined) {
      stretch ??= start;
      continue;
    }
    if (stretch !== undefined) runs.push({ from: stretch, to: start });
    runs.push({ kept: hour });
    stretch = undefined;
  }
  runs.push({ from: stretch ?? hours.at(-1)! + HOUR, to: null });
  return runs as [Stretch, ...SwapRun[]];
}

/**
 * The cursor after the `limit`-th swap of a list whose first page is `first`, found before the
 * headers go out; pages of cursors only (read, not formatted or held), pinned like the answer's
 * own pages. Undefined when the list ends within the limit.
 */
async function findNextCursor(
  reader: SwapListReader,
  network: NetworkName,
  bounds: SwapBounds,
  first: SwapPage,
  limit: number,
  nowMs: number,
): Promise<string | undefined> {
  let { hasNextPage, endCursor } = first.pageInfo;
  let left = limit - first.edges.length;
  while (hasNextPage && left > 0) {
    const size = Math.min(MAX_SWAPS_PAGE, left);
    const page = await listSwaps(
      reader,
      { network, from: bounds.from, first: size, after: endCursor, atBlock: bounds.atBlock },
      nowMs,
    );
    ({ hasNextPage, endCursor } = page.pageInfo);
    left -= size;
  }
  return hasNextPage && endCursor !== null ? endCursor : undefined;
}
