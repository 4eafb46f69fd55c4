import type { NetworkName } from "../../domain/types.js";
import type {
  GraphqlExecutor,
  GraphqlSession,
  PreparedOperation,
} from "../../graphql/createGraphqlExecutor.js";
import { buildPoolTrade, type PoolSwapNode, type PoolTrade } from "../../views/answers/buildPoolTrade.js";
import type { FreshnessData } from "../api/restOperations.js";
import { wrongPairId } from "./parsePairId.js";
import { PAIR_POOLS_OPERATION, resolvePairPool } from "./resolvePairPool.js";

/** The fixed GraphQL operation that pins a pool's trades: the indexed block and the pool's tokens. */
const POOL_TRADES_START_OPERATION = /* GraphQL */ `
  query ListingPoolTradesStart($network: Network!, $pool: String!) {
    networkStatus(network: $network) { indexedBlock dataAgeSeconds historyFrom }
    pool(network: $network, address: $pool) { token0 token1 }
  }
`;

/** The fixed GraphQL operation behind a pool's trades, read page by page at one block. */
const POOL_SWAPS_OPERATION = /* GraphQL */ `
  query ListingPoolSwaps(
    $network: Network!
    $pool: String!
    $from: Timestamp!
    $to: Timestamp
    $first: Int!
    $after: String
    $atBlock: BigInt
  ) {
    poolSwaps(network: $network, pool: $pool, from: $from, to: $to, first: $first, after: $after, atBlock: $atBlock) {
      pageInfo { hasNextPage endCursor }
      edges { node { blockNumber logIndex timestamp hop zeroForOne amount0 amount1 } }
    }
  }
`;

const TOKEN_DECIMALS_OPERATION = /* GraphQL */ `
  query ListingTokenDecimals($network: Network!, $address: String!) {
    token(network: $network, symbolOrAddress: $address) { decimals }
  }
`;

/** The trade operations, parsed, validated and compiled once. */
export interface PoolTradeOperations {
  start: PreparedOperation;
  swaps: PreparedOperation;
  decimals: PreparedOperation;
  /** What a two-part pair id is resolved with (PAIR_POOLS_OPERATION). */
  pairPools: PreparedOperation;
}

/** Parses, validates and compiles the trade operations once, at start. */
export function parsePoolTradeOperations(executor: Pick<GraphqlExecutor, "prepare">): PoolTradeOperations {
  return {
    start: executor.prepare(POOL_TRADES_START_OPERATION),
    swaps: executor.prepare(POOL_SWAPS_OPERATION),
    decimals: executor.prepare(TOKEN_DECIMALS_OPERATION),
    pairPools: executor.prepare(PAIR_POOLS_OPERATION),
  };
}

interface PoolSwapsData {
  poolSwaps: {
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: {
      node: PoolSwapNode;
    }[];
  };
}

/** What a pool's trades are read with: the pinned block, the pool and its tokens' decimals. */
export interface PoolTradeSource {
  networkStatus: FreshnessData["networkStatus"];
  /** The start of the stored history (unix seconds): NetworkStatus.historyFrom. */
  historyFrom: number;
  /** Pages of trades of [from, to) (unix seconds), oldest first, at the pinned block. */
  pages: (from: number, to: number | null) => AsyncGenerator<PoolTrade[]>;
}

/**
 * Opens a pool's trades by its pair id (`param` names the parameter in errors): 400 for an id
 * that names no indexed pool (base_target or base_target_pool), 503 when the network does not serve.
 */
export async function openPoolTrades(
  session: GraphqlSession,
  operations: PoolTradeOperations,
  network: NetworkName,
  pairId: string,
  param: string,
): Promise<PoolTradeSource> {
  const { base, target, pool } = await resolvePairPool(session, operations.pairPools, network, pairId, param);
  const wrongId = () => wrongPairId(param);
  const start = await session.run<
    FreshnessData & {
      networkStatus: { historyFrom: number } | null;
      pool: { token0: string; token1: string } | null;
    }
  >(operations.start, { network, pool });
  if (start.pool === null || start.pool.token0 !== base || start.pool.token1 !== target) throw wrongId();
  const decimalsOf = async (address: string) =>
    (await session.run<{ token: { decimals: number } | null }>(operations.decimals, { network, address }))
      .token?.decimals;
  const d0 = await decimalsOf(base!);
  const d1 = await decimalsOf(target!);
  if (d0 === undefined || d1 === undefined) throw wrongId();
  const atBlock = start.networkStatus?.indexedBlock ?? null;

  async function* pages(from: number, to: number | null): AsyncGenerator<PoolTrade[]> {
    let after: string | null = null;
    do {
      const page: PoolSwapsData = await session.run<PoolSwapsData>(operations.swaps, {
        network,
        pool,
        from,
        to,
        first: 1000,
        after,
        atBlock,
      });
      yield page.poolSwaps.edges.map(({ node }) => buildPoolTrade(node, d0!, d1!));
      after = page.poolSwaps.pageInfo.hasNextPage ? page.poolSwaps.pageInfo.endCursor : null;
    } while (after !== null);
  }
  const historyFrom = start.networkStatus?.historyFrom ?? 0;
  return { networkStatus: start.networkStatus, historyFrom, pages };
}
