import type { GraphqlExecutor, PreparedOperation } from "../../graphql/createGraphqlExecutor.js";
import { type ExportSwapNode, SWAP_ROW_SELECTION, type SwapPage } from "../../views/answers/swapRow.js";

/** The freshness a REST answer carries (X-Indexed-Block, X-Data-Age), and the status operation's. */
export interface FreshnessData {
  networkStatus: {
    indexedBlock: string | null;
    dataAgeSeconds: number | null;
    /** Only in the status operation: whether market queries answer now (ready, fresh, not halted). */
    serving?: boolean;
    /** Only in the status operation: how often the network's indexer polls (ms). */
    pollIntervalMs?: number;
  } | null;
}

/** The result of SWAPS_OPERATION. */
export type SwapsData = SwapPage;

/** The result of EXPORT_OPERATION. */
export type ExportData = SwapPage<ExportSwapNode>;

/** The result of SWAP_CURSORS_OPERATION. */
export interface SwapCursorsData {
  swaps: { pageInfo: SwapPage["swaps"]["pageInfo"] };
}

/** The fixed GraphQL operation that pins GET /api/swaps_24h: the indexed block at request start. */
const STATUS_OPERATION = /* GraphQL */ `
  query RestStatus($network: Network!) {
    networkStatus(network: $network) { indexedBlock dataAgeSeconds serving pollIntervalMs }
  }
`;

/**
 * The fixed GraphQL operation behind GET /api/swaps_24h, executed page by page at one block (and
 * hour by hour, with `to`, when settled hours are kept on disk).
 * @internal exported for the bench: bench/listServer.ts sends it.
 */
export const SWAPS_OPERATION = swapsOperation("RestSwaps", SWAP_ROW_SELECTION);

/**
 * The fixed GraphQL operation behind GET /api/swaps_export: the list's row and what keys and
 * dates it (log index, timestamp, sender, tracked, pools), page by page at one block.
 */
const EXPORT_OPERATION = swapsOperation(
  "RestSwapsExport",
  `${SWAP_ROW_SELECTION} logIndex timestamp sender tracked pools`,
);

/** A keyset page of swaps with `fields` on each node: the one query both lists run. */
function swapsOperation(name: string, fields: string): string {
  return /* GraphQL */ `
  query ${name}(
    $network: Network!
    $from: Timestamp!
    $to: Timestamp
    $first: Int!
    $after: String
    $atBlock: BigInt
  ) {
    swaps(network: $network, from: $from, to: $to, first: $first, after: $after, atBlock: $atBlock) {
      pageInfo { hasNextPage endCursor }
      edges { node { ${fields} } }
    }
  }
`;
}

/**
 * The same pages with nothing but their cursors: a limited /api/swaps_24h answer finds its next
 * cursor with it before the headers go out, without formatting (or holding) the swaps twice.
 */
const SWAP_CURSORS_OPERATION = /* GraphQL */ `
  query RestSwapCursors($network: Network!, $from: Timestamp!, $first: Int!, $after: String, $atBlock: BigInt) {
    swaps(network: $network, from: $from, first: $first, after: $after, atBlock: $atBlock) {
      pageInfo { hasNextPage endCursor }
    }
  }
`;

/** The REST operations, parsed, validated and compiled once. */
export interface RestOperations {
  status: PreparedOperation;
  swaps: PreparedOperation;
  export: PreparedOperation;
  swapCursors: PreparedOperation;
}

/** Parses, validates and compiles the fixed REST operations once, at start. */
export function parseRestOperations(executor: Pick<GraphqlExecutor, "prepare">): RestOperations {
  return {
    status: executor.prepare(STATUS_OPERATION),
    swaps: executor.prepare(SWAPS_OPERATION),
    export: executor.prepare(EXPORT_OPERATION),
    swapCursors: executor.prepare(SWAP_CURSORS_OPERATION),
  };
}
