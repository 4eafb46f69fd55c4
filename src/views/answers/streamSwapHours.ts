import type { KeptHour } from "./createSwapHourCache.js";
import { createSwapRowRenderer, type SwapRowRenderer } from "./createSwapRowRenderer.js";
import { HOUR } from "./swapHours.js";
import type { SwapPage } from "./swapRow.js";

// Pieces of a kept hour streamed at a time.
const KEPT_CHUNK_BYTES = 256 * 1024;

/** A stretch of a whole-window list: an hour kept on disk, or [from, to) read from the store (to null: no end). */
export type SwapRun = { kept: KeptHour } | { from: number; to: number | null };

/** The runs of a whole-window list and how to read them. */
export interface SwapRuns {
  /** In order; the first is read from the store, and so is the last. */
  runs: readonly SwapRun[];
  /** The first page of the first run, read before any byte went out. */
  first: SwapPage;
  /** Reads one page of [from, to) after `after`. */
  readPage(run: { from: number; to: number | null }, after: string | null): Promise<SwapPage>;
  /** Opens a kept hour: its pieces after `prefix` free bytes, or undefined when its file is gone. */
  open(
    hour: KeptHour,
    chunkBytes: number,
    prefix: number,
  ): Promise<AsyncGenerator<{ buffer: Buffer; end: number }> | undefined>;
}

/**
 * The whole window run by run: a kept hour is streamed from its file (one that cannot be opened
 * any more is read from the store instead), a stretch between kept hours is read in pages and
 * rendered; the renderer joins them into one array, the bytes of JSON.stringify of the list.
 */
export async function* streamSwapHours(list: SwapRuns): AsyncGenerator<Buffer> {
  const renderer = createSwapRowRenderer();
  let first: SwapPage | undefined = list.first;
  for (const run of list.runs) {
    const file = "kept" in run ? await list.open(run.kept, KEPT_CHUNK_BYTES, 1) : undefined;
    if ("kept" in run && file !== undefined) {
      const separator = renderer.join(run.kept.rows);
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
    const read = "kept" in run ? { from: run.kept.start, to: run.kept.start + HOUR } : run;
    for await (const { piece } of renderPages(renderer, first, (after) => list.readPage(read, after))) {
      if (piece.length > 0) yield piece;
    }
    first = undefined;
  }
  yield renderer.render([], true);
}

/**
 * A stretch's pages rendered in turn (`first`, when given, is its first page): each page's bytes as
 * they go in the list and its elements alone, as kept on disk. Other requests get their turn
 * between pages (see streamSwapPages).
 */
export async function* renderPages(
  renderer: SwapRowRenderer,
  first: SwapPage | undefined,
  readPage: (after: string | null) => Promise<SwapPage>,
): AsyncGenerator<{ piece: Buffer; elements: Buffer; rows: number }> {
  let page = first;
  let after: string | null = null;
  for (;;) {
    page ??= await readPage(after);
    const { edges, pageInfo } = page;
    const { piece, elements } = renderer.renderElements(edges);
    yield { piece, elements, rows: edges.length };
    page = undefined;
    if (!pageInfo.hasNextPage) return;
    after = pageInfo.endCursor;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
