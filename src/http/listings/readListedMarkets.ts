import type { NetworkName } from "../../domain/types.js";
import type {
  GraphqlExecutor,
  GraphqlSession,
  PreparedOperation,
} from "../../graphql/createGraphqlExecutor.js";
import type { ListedMarket, ListedToken } from "../../views/answers/buildListingBodies.js";
import type { FreshnessData } from "../api/restOperations.js";
import { pairIdsOf } from "./parsePairId.js";

const POOLS_PAGE = 100;

/** The fixed GraphQL operation that lists a network's pools (a page) for the listing endpoints. */
const LISTING_POOLS_OPERATION = /* GraphQL */ `
  query ListingPools($network: Network!, $first: Int!, $after: String) {
    networkStatus(network: $network) { indexedBlock dataAgeSeconds }
    pools(network: $network, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          address token0 token1 liquidityUSD
          volumeToken0_24h volumeToken1_24h priceHigh24h priceLow24h priceChangePercentage24h lastTradePrice
          reserve0 { token { address name symbol decimals } }
          reserve1 { token { address name symbol decimals } }
          orderBook(levels: 0) { midPrice bestAsk bestBid }
        }
      }
    }
  }
`;

/** The listing operations, parsed, validated and compiled once. */
export interface ListingOperations {
  pools: PreparedOperation;
}

/** Parses, validates and compiles the listing operations once, at start. */
export function parseListingOperations(executor: Pick<GraphqlExecutor, "prepare">): ListingOperations {
  return {
    pools: executor.prepare(LISTING_POOLS_OPERATION),
  };
}

interface PoolNode {
  address: string;
  token0: string;
  token1: string;
  liquidityUSD: string | null;
  volumeToken0_24h: string;
  volumeToken1_24h: string;
  priceHigh24h: string | null;
  priceLow24h: string | null;
  priceChangePercentage24h: string | null;
  lastTradePrice: string | null;
  reserve0: { token: ListedToken };
  reserve1: { token: ListedToken };
  /** The pool's state price (midPrice: reserves or sqrtPriceX96, by pricing) and best prices; null for an empty pool. */
  orderBook: { midPrice: string; bestAsk: string; bestBid: string } | null;
}

interface PoolsData extends FreshnessData {
  pools: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: PoolNode }[] };
}

/**
 * Every indexed pool of `network` with a price, as the listing endpoints show it: the pools
 * query's pages (state and liquidity from memory; token volumes and price range over the rolling
 * 24 hours up to the indexed block's time, every pool's from one grouped read of the window's Swap
 * logs: getRollingPoolDay) and their tokens.
 */
export async function readListedMarkets(
  session: GraphqlSession,
  operations: ListingOperations,
  network: NetworkName,
): Promise<{ markets: ListedMarket[]; networkStatus: FreshnessData["networkStatus"] }> {
  const nodes = new Map<string, PoolNode>();
  let networkStatus: FreshnessData["networkStatus"] = null;
  let after: string | null = null;
  do {
    const page: PoolsData = await session.run<PoolsData>(operations.pools, {
      network,
      first: POOLS_PAGE,
      after,
    });
    networkStatus ??= page.networkStatus;
    for (const { node } of page.pools.edges) nodes.set(node.address, node);
    after = page.pools.pageInfo.hasNextPage ? page.pools.pageInfo.endCursor : null;
  } while (after !== null);

  const pairIds = pairIdsOf(nodes.values());
  const markets: ListedMarket[] = [];
  for (const pool of [...nodes.values()].sort((a, b) => (a.address < b.address ? -1 : 1))) {
    const base = pool.reserve0.token;
    const target = pool.reserve1.token;
    // A pool with no state price (no book) is empty: not listed, traded or not.
    if (pool.orderBook === null) continue;
    const lastPrice = pool.lastTradePrice ?? pool.orderBook.midPrice;
    markets.push({
      pool: pool.address,
      pairId: pairIds.get(pool.address)!,
      base,
      target,
      lastPrice,
      liquidityUsd: pool.liquidityUSD ?? "0",
      baseVolume: pool.volumeToken0_24h,
      targetVolume: pool.volumeToken1_24h,
      ...(pool.priceHigh24h === null ? {} : { high: pool.priceHigh24h }),
      ...(pool.priceLow24h === null ? {} : { low: pool.priceLow24h }),
      ...(pool.priceChangePercentage24h === null ? {} : { priceChange24h: pool.priceChangePercentage24h }),
      lowestAsk: pool.orderBook.bestAsk,
      highestBid: pool.orderBook.bestBid,
    });
  }
  return { markets, networkStatus };
}
