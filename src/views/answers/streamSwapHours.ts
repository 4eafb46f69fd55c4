import { countEvent } from "../../lib/countEvent.js";
import type { SwapHourCache } from "./createSwapHourCache.js";
import { createSwapRowRenderer, type SwapRowRenderer } from "./createSwapRowRenderer.js";
import type { SwapPage } from "./swapRow.js";

// Pieces of a kept hour streamed at a time.
const KEPT_CHUNK_BYTES = 256 * 1024;

/** The hours of a whole-window list and how to read them. */
export interface SwapHours {
  network: string;
  /** Unix seconds each hour of the window starts at (the first holds the window's start). */
  hours: readonly number[];
  /** Whether hour i is settled: its rendering may be kept on disk, and read from there. */
  settled(i: number): boolean;
  /** Reads one page of hour i after `after`. */
  readPage(i: number, after: string | null): Promise<SwapPage>;
  /** The first page of hour 0, read before any byte went out. */
  first: SwapPage;
}

/**
 * The whole window hour by hour: a settled hour kept on disk is streamed from its file, any
 * other hour is read in pages and rendered (a settled one also written to disk, and kept once
 * complete). The pages of an hour follow each other as the list's pages do.
 */
export async function* streamSwapHours(cache: SwapHourCache, list: SwapHours): AsyncGenerator<Buffer> {
  const { network, hours } = list;
  const renderer = createSwapRowRenderer();
  let page: SwapPage | undefined = list.first;
  for (let i = 0; i < hours.length; i++) {
    const kept = list.settled(i) ? cache.get(network, hours[i]!) : undefined;
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
    const writer = list.settled(i) ? cache.write(network, hours[i]!) : undefined;
    try {
      for await (const { piece, elements, rows } of renderHour(renderer, page, (after) =>
        list.readPage(i, after),
      )) {
        writer?.append(elements, rows);
        if (piece.length > 0) yield piece;
      }
      page = undefined;
      if (writer !== undefined) {
        writer.commit();
        countEvent("swap_hours_rendered", { network, by: "download" });
      }
    } finally {
      // A list cut off (error, client gone) keeps nothing of the hour it was in.
      writer?.abort();
    }
  }
  yield renderer.render([], true);
}

/**
 * One hour's pages rendered in turn (`first`, when given, is its first page): each page's bytes as
 * they go in the list and its elements alone, as kept on disk. Other requests get their turn
 * between pages (see streamSwapPages).
 */
export async function* renderHour(
  renderer: SwapRowRenderer,
  first: SwapPage | undefined,
  readPage: (after: string | null) => Promise<SwapPage>,
): AsyncGenerator<{ piece: Buffer; elements: Buffer; rows: number }> {
  let page = first;
  let after: string | null = null;
  for (;;) {
    page ??= await readPage(after);
    const { edges, pageInfo } = page.swaps;
    const { piece, elements } = renderer.renderElements(edges);
    yield { piece, elements, rows: edges.length };
    page = undefined;
    if (!pageInfo.hasNextPage) return;
    after = pageInfo.endCursor;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
