import type { NetworkName } from "../../src/domain/types.js";
import {
  buildBookSide,
  type ListedMarket,
  type ListedToken,
} from "../../src/views/answers/buildListingBodies.js";
import { buildPoolTrade, type PoolSwapNode, type PoolTrade } from "../../src/views/answers/buildPoolTrade.js";
import {
  ambiguousPairId,
  type PairedPool,
  pairIdsOf,
  parsePairId,
  wrongPairId,
} from "../../src/views/answers/parsePairId.js";
import {
  type ExportSwapNode,
  type SwapNode,
  type SwapPage,
  toSwapRow,
} from "../../src/views/answers/swapRow.js";
import type { GraphqlExecutor, GraphqlSession, PreparedOperation } from "./createGraphqlExecutor.js";

// The answers as they were made before they read the views (src/views/answers): the listings'
// readers (readListedMarkets, readPoolTrades, resolvePairPool), the order books, /api/quote,
// /api/trade_volume_usd_7d and the swap lists, /api/swaps_24h and /api/swaps_export: fixed GraphQL
// operations run in-process. Kept as the reference the views' answers are compared with, byte for
// byte (test/http/answerReaders.test.ts).

/** The freshness a listing answer carries, as the operations read it. */
interface FreshnessData {
  networkStatus: { indexedBlock: string | null; dataAgeSeconds: number | null } | null;
}

/** The fixed GraphQL operation that lists a network's pools' tokens (a page): what a two-part pair id needs. */
const PAIR_POOLS_OPERATION = /* GraphQL */ `
  query PairPools($network: Network!, $first: Int!, $after: String) {
    networkStatus(network: $network) { indexedBlock }
    pools(network: $network, first: $first, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges { node { address token0 token1 } }
    }
  }
`;

interface PairPoolsData {
  networkStatus: { indexedBlock: string | null } | null;
  pools: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: PairedPool }[] };
}

// The pools by token pair of the newest indexed block read, per prepared operation (one server) and
// network: one page read per request while the block lasts.
const keptByOperation = new WeakMap<
  PreparedOperation,
  Map<NetworkName, { block: string | null; byPair: Map<string, string[]> }>
>();

/** Every indexed pool's address by its "token0_token1", at the indexed block of the first page. */
async function poolsByPair(
  session: GraphqlSession,
  operation: PreparedOperation,
  network: NetworkName,
): Promise<Map<string, string[]>> {
  let kept = keptByOperation.get(operation);
  if (kept === undefined) {
    kept = new Map();
    keptByOperation.set(operation, kept);
  }
  let after: string | null = null;
  let block: string | null | undefined;
  const byPair = new Map<string, string[]>();
  do {
    const page: PairPoolsData = await session.run<PairPoolsData>(operation, {
      network,
      first: POOLS_PAGE,
      after,
    });
    if (block === undefined) {
      block = page.networkStatus?.indexedBlock ?? null;
      const known = kept.get(network);
      if (known !== undefined && known.block === block && block !== null) return known.byPair;
    }
    for (const { node } of page.pools.edges) {
      const pair = `${node.token0}_${node.token1}`;
      byPair.set(pair, [...(byPair.get(pair) ?? []), node.address]);
    }
    after = page.pools.pageInfo.hasNextPage ? page.pools.pageInfo.endCursor : null;
  } while (after !== null);
  kept.set(network, { block: block ?? null, byPair });
  return byPair;
}

/**
 * The base, target and pool a pair id names (`param` names the parameter in errors): the pool
 * itself for base_target_pool; for base_target, the one indexed pool of those tokens (400 when
 * there is none or several). Whether the pool holds those tokens is the caller's check.
 */
async function resolvePairPool(
  session: GraphqlSession,
  operation: PreparedOperation,
  network: NetworkName,
  pairId: string,
  param: string,
): Promise<{ base: string; target: string; pool: string }> {
  const { base, target, pool } = parsePairId(pairId, param);
  if (pool !== undefined) return { base, target, pool };
  const pools = (await poolsByPair(session, operation, network)).get(`${base}_${target}`) ?? [];
  if (pools.length === 0) throw wrongPairId(param);
  if (pools.length > 1) throw ambiguousPairId(param, pools);
  return { base, target, pool: pools[0]! };
}

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

/** The fixed GraphQL operation behind both order books: the pool's curve as levels (Pool.orderBook). */
const ORDER_BOOK_OPERATION = /* GraphQL */ `
  query ListingOrderBook($network: Network!, $pool: String!, $levels: Int!, $range: Decimal!) {
    networkStatus(network: $network) { indexedBlock dataAgeSeconds }
    pool(network: $network, address: $pool) {
      token0 token1
      reserve0 { token { decimals } }
      orderBook(levels: $levels, rangePercent: $range) {
        asks { price amount0 }
        bids { price amount0 }
      }
    }
  }
`;

interface Level {
  price: string;
  amount0: string;
}

interface OrderBookData extends FreshnessData {
  pool: {
    token0: string;
    token1: string;
    reserve0: { token: { decimals: number } };
    orderBook: { asks: Level[]; bids: Level[] } | null;
  } | null;
}

/** The book of a resolved pair's pool as the order-book routes made it: [price, amount] sides. */
export async function readPoolBook(
  executor: GraphqlExecutor,
  session: GraphqlSession,
  network: NetworkName,
  args: { base: string; target: string; pool: string; param: string; levels: number; range: string },
): Promise<{ bids: string[][]; asks: string[][]; networkStatus: FreshnessData["networkStatus"] }> {
  const { base, target, pool, param, levels, range } = args;
  const data = await session.run<OrderBookData>(executor.prepare(ORDER_BOOK_OPERATION), {
    network,
    pool,
    levels,
    range,
  });
  const found = data.pool;
  if (found === null || found.token0 !== base || found.token1 !== target) throw wrongPairId(param);
  if (found.orderBook === null) throw wrongPairId(param);
  const d0 = found.reserve0.token.decimals;
  return {
    bids: buildBookSide(found.orderBook.bids, d0),
    asks: buildBookSide(found.orderBook.asks, d0),
    networkStatus: data.networkStatus,
  };
}

// What the freshness headers (X-Indexed-Block, X-Data-Age) are made of.
const FRESHNESS = "networkStatus(network: $network) { indexedBlock dataAgeSeconds }";

/** The fixed GraphQL operation behind GET /api/quote, before it read the views. */
const QUOTE_OPERATION = /* GraphQL */ `
  query RestQuote($network: Network!, $sellToken: String!, $buyToken: String!) {
    ${FRESHNESS}
    quote(network: $network, sellToken: $sellToken, buyToken: $buyToken) {
      network
      sellToken { name symbol decimals address }
      buyToken { name symbol decimals address }
      price
    }
  }
`;

/** The fixed GraphQL operation behind GET /api/trade_volume_usd_7d, before it read the views. */
const DAILY_VOLUMES_OPERATION = /* GraphQL */ `
  query RestDailyVolumes($network: Network!) {
    ${FRESHNESS}
    dailyVolumes(network: $network, days: 7) { date addressCount volumeUSD }
  }
`;

interface TokenFields {
  name: string;
  symbol: string;
  decimals: number;
  address: string;
}

interface QuoteData extends FreshnessData {
  quote: { network: string; sellToken: TokenFields; buyToken: TokenFields; price: string };
}

interface DailyVolumesData extends FreshnessData {
  dailyVolumes: { date: string; addressCount: number; volumeUSD: string }[];
}

// Field order is the spec's table order.
function tokenBody(token: TokenFields) {
  return { name: token.name, symbol: token.symbol, decimals: String(token.decimals), address: token.address };
}

/** GET /api/quote's answer as the route made it through GraphQL. */
export async function readQuote(
  executor: GraphqlExecutor,
  session: GraphqlSession,
  variables: { network: NetworkName; sellToken: string; buyToken: string },
) {
  const data = await session.run<QuoteData>(executor.prepare(QUOTE_OPERATION), variables);
  const { network, sellToken, buyToken, price } = data.quote;
  const value = {
    result: { network, sell_token: tokenBody(sellToken), buy_token: tokenBody(buyToken), price },
  };
  return { value, networkStatus: data.networkStatus };
}

/** GET /api/trade_volume_usd_7d's answer as the route made it through GraphQL. */
export async function readTradeVolume7d(
  executor: GraphqlExecutor,
  session: GraphqlSession,
  network: NetworkName,
) {
  const data = await session.run<DailyVolumesData>(executor.prepare(DAILY_VOLUMES_OPERATION), { network });
  const value = data.dailyVolumes.map((day) => ({
    date: day.date,
    address_count: String(day.addressCount),
    trade_volume_usd: day.volumeUSD,
  }));
  return { value, networkStatus: data.networkStatus };
}

// ---- /api/swaps_24h and /api/swaps_export, before they read the views ----

const DAY = 86_400;
const SIDE_SELECTION = "token { name symbol decimals address } amount amountDecimal(digits: 8)";

/** The GraphQL fields of a swap that the list's row was made of (SwapNode). */
const SWAP_ROW_SELECTION = `txHash blockNumber sell { ${SIDE_SELECTION} } buy { ${SIDE_SELECTION} } volumeUSD`;

/** The fixed GraphQL operation that pinned the swap lists: the indexed block at request start. */
const SWAPS_STATUS_OPERATION = /* GraphQL */ `
  query RestStatus($network: Network!) {
    networkStatus(network: $network) { indexedBlock dataAgeSeconds serving pollIntervalMs }
  }
`;

/** A keyset page of swaps with `fields` on each node: the one query both lists ran. */
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

/** The fixed GraphQL operation behind GET /api/swaps_24h, executed page by page at one block (bench/listServer.ts runs it too). */
export const SWAPS_OPERATION = swapsOperation("RestSwaps", SWAP_ROW_SELECTION);

/** The fixed GraphQL operation behind GET /api/swaps_export: the row and what keys and dates it. */
const EXPORT_OPERATION = swapsOperation(
  "RestSwapsExport",
  `${SWAP_ROW_SELECTION} logIndex timestamp sender tracked pools`,
);

interface SwapsStatusData {
  networkStatus: { indexedBlock: string | null; dataAgeSeconds: number | null } | null;
}

interface SwapsData<Node extends SwapNode = SwapNode> {
  swaps: SwapPage<Node>;
}

/** A swap list answer as the routes made it through GraphQL: its bytes and the headers made with them. */
export interface SwapListReference {
  body: string;
  /** X-Indexed-Block, X-Data-Age and, for a limited list that goes on, X-Next-Cursor and Link. */
  headers: Record<string, string>;
}

function freshness(status: SwapsStatusData["networkStatus"]): Record<string, string> {
  return {
    ...(status?.indexedBlock == null ? {} : { "x-indexed-block": status.indexedBlock }),
    ...(status?.dataAgeSeconds == null ? {} : { "x-data-age": String(status.dataAgeSeconds) }),
  };
}

/**
 * GET /api/swaps_24h as the route made it through GraphQL at the session's instant: the status,
 * then the `swaps` pages at its block, every swap as the spec's object (toSwapRow), the list as
 * JSON.stringify of the array (the whole window, or `limit` swaps after `cursor` with the next cursor).
 */
export async function readSwaps24h(
  executor: GraphqlExecutor,
  session: GraphqlSession,
  args: { network: NetworkName; limit?: number; cursor?: string },
): Promise<SwapListReference> {
  const { network, limit } = args;
  const { networkStatus } = await session.run<SwapsStatusData>(executor.prepare(SWAPS_STATUS_OPERATION), {
    network,
  });
  const window = { network, from: session.now - DAY, atBlock: networkStatus?.indexedBlock ?? null };
  const rows: unknown[] = [];
  let after = args.cursor ?? null;
  let hasNextPage = true;
  while (hasNextPage && (limit === undefined || rows.length < limit)) {
    const first = Math.min(1000, limit === undefined ? 1000 : limit - rows.length);
    const { swaps } = await session.run<SwapsData>(executor.prepare(SWAPS_OPERATION), {
      ...window,
      to: null,
      first,
      after,
    });
    rows.push(...swaps.edges.map(({ node }) => toSwapRow(node)));
    ({ hasNextPage } = swaps.pageInfo);
    after = swaps.pageInfo.endCursor;
  }
  const headers = freshness(networkStatus);
  // (The route found the next cursor with an operation that read the same pages' cursors alone.)
  if (limit !== undefined && hasNextPage && after !== null) {
    headers["x-next-cursor"] = after;
    headers.link = `</api/swaps_24h?${new URLSearchParams({ network, limit: String(limit), cursor: after })}>; rel="next"`;
  }
  return { body: JSON.stringify(rows), headers };
}

/**
 * GET /api/swaps_export as the route made it through GraphQL at the session's instant: the
 * `swaps` pages at the indexed block (or `atBlock` below it), one JSON line a swap: the list's
 * object with log_index, timestamp and sender after its keys and dates, tracked and pools last.
 */
export async function readSwapsExport(
  executor: GraphqlExecutor,
  session: GraphqlSession,
  args: { network: NetworkName; from: string; to?: string; atBlock?: string },
): Promise<SwapListReference> {
  const { network } = args;
  const { networkStatus } = await session.run<SwapsStatusData>(executor.prepare(SWAPS_STATUS_OPERATION), {
    network,
  });
  const indexed = networkStatus?.indexedBlock ?? null;
  const atBlock =
    args.atBlock === undefined || (indexed !== null && BigInt(args.atBlock) > BigInt(indexed))
      ? indexed
      : args.atBlock;
  const lines: string[] = [];
  let after: string | null = null;
  for (;;) {
    const { swaps }: SwapsData<ExportSwapNode> = await session.run<SwapsData<ExportSwapNode>>(
      executor.prepare(EXPORT_OPERATION),
      { network, from: args.from, to: args.to ?? null, atBlock, first: 1000, after },
    );
    for (const { node } of swaps.edges) {
      const row = toSwapRow(node);
      const line = {
        tx_hash: row.tx_hash,
        log_index: node.logIndex,
        block_number: row.block_number,
        timestamp: node.timestamp,
        sender: node.sender,
        sell_token: row.sell_token,
        buy_token: row.buy_token,
        trade_volume_usd: row.trade_volume_usd,
        tracked: node.tracked,
        pools: node.pools,
      };
      lines.push(`${JSON.stringify(line)}\n`);
    }
    if (!swaps.pageInfo.hasNextPage) break;
    after = swaps.pageInfo.endCursor;
  }
  const headers = freshness(networkStatus);
  if (atBlock !== null) headers["x-indexed-block"] = atBlock;
  return { body: lines.join(""), headers };
}
