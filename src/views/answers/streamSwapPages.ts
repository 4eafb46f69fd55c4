import { createSwapRowRenderer, type SwapRowRenderer } from "./createSwapRowRenderer.js";
import type { SwapNode, SwapPage } from "./swapRow.js";

/**
 * The list page by page from `first`, at most `limit` swaps: the bytes of the old one-piece
 * answer, JSON.stringify(array), written while the pages are read (or the rows of another
 * `renderer`: the export's NDJSON).
 */
export async function* streamSwapPages<Node extends SwapNode = SwapNode>(list: {
  first: SwapPage<Node>;
  limit: number | undefined;
  pageSize: number;
  readPage: (first: number, after: string | null) => Promise<SwapPage<Node>>;
  renderer?: SwapRowRenderer<Node>;
}): AsyncGenerator<Buffer> {
  let page = list.first;
  let remaining = list.limit ?? Number.POSITIVE_INFINITY;
  const renderer =
    list.renderer ?? (createSwapRowRenderer() as SwapRowRenderer<SwapNode> as SwapRowRenderer<Node>);
  for (;;) {
    const { edges, pageInfo } = page;
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
