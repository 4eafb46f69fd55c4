import { createSwapRowRenderer } from "./createSwapRowRenderer.js";
import type { SwapsData } from "./restOperations.js";

/**
 * The list page by page from `first`, at most `limit` swaps: the bytes of the old one-piece
 * answer, JSON.stringify(array), written while the pages are read.
 */
export async function* streamSwapPages(list: {
  first: SwapsData;
  limit: number | undefined;
  pageSize: number;
  readPage: (first: number, after: string | null) => Promise<SwapsData>;
}): AsyncGenerator<Buffer> {
  let page = list.first;
  let remaining = list.limit ?? Number.POSITIVE_INFINITY;
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
    page = await list.readPage(Math.min(list.pageSize, remaining), pageInfo.endCursor);
  }
}
