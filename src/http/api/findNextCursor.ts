import { MAX_SWAPS_PAGE } from "../../api/maxSwapsPage.js";
import type { GraphqlSession } from "../../graphql/createGraphqlExecutor.js";
import type { RestOperations, SwapCursorsData, SwapsData } from "./restOperations.js";

/**
 * The cursor after the `limit`-th swap of a list whose first page is `first`, found before the
 * headers go out; pages of cursors only (nothing formatted or held), pinned like the answer's
 * own pages. Undefined when the list ends within the limit.
 */
export async function findNextCursor(
  first: SwapsData,
  limit: number,
  window: Record<string, unknown>,
  session: GraphqlSession,
  operations: RestOperations,
): Promise<string | undefined> {
  let { hasNextPage, endCursor } = first.swaps.pageInfo;
  let left = limit - first.swaps.edges.length;
  while (hasNextPage && left > 0) {
    const size = Math.min(MAX_SWAPS_PAGE, left);
    const data = await session.run<SwapCursorsData>(operations.swapCursors, {
      ...window,
      first: size,
      after: endCursor,
    });
    ({ hasNextPage, endCursor } = data.swaps.pageInfo);
    left -= size;
  }
  return hasNextPage && endCursor !== null ? endCursor : undefined;
}
