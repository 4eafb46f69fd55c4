import {
  encodeLiquidityEventCursor,
  type LiquidityEventCursorPosition,
} from "../../api/liquidityEventCursor.js";
import { encodeSwapCursor, type SwapPosition } from "../../api/swapCursor.js";
import { formatDecimal } from "../../domain/formatDecimal.js";
import type { NetworkStatus } from "../../domain/market.js";
import { NATIVE, type NetworkName, type Token } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { poolHoldings } from "../../pricing/poolHoldings.js";
import {
  assertNetworkConfigured,
  assertNetworkReady,
  dataAgeSeconds,
  findNotReadyReason,
} from "../../views/assertNetworkReady.js";
import { buildRateLimitNote } from "../../views/buildRateLimitNote.js";
import { getPoolLiquidityUsd } from "../../views/getPoolLiquidityUsd.js";
import { getQuote, type QuoteArgs, type QuoteResult } from "../../views/getQuote.js";
import { listSwaps, type SwapsArgs } from "../../views/listSwaps.js";
import { quoteOrNoRouteError } from "../../views/quoteOrNoRouteError.js";
import { findSymbol, parseTokenInput, resolveToken } from "../../views/resolveToken.js";
import type { TokenDayStats } from "../context/createDayStatsLoaders.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { createLiquidityEventSource } from "../queries/createLiquidityEventSource.js";
import {
  createLoadedTokenAmountSource,
  createSwapSource,
  type TokenAmountSource,
} from "../queries/createSwapSource.js";
import { getPoolDayFigures } from "../queries/getPoolDayFigures.js";
import { getPoolLastTradePrice } from "../queries/getPoolLastTradePrice.js";
import { getPoolOrderBook, type OrderBookArgs } from "../queries/getPoolOrderBook.js";
import { getPoolPriceChange24h, getPoolStats, getTokenStats } from "../queries/getSubjectStats.js";
import { getTokenValuation } from "../queries/getTokenValuation.js";
import { type CandlesArgs, listCandles } from "../queries/listCandles.js";
import { type LiquidityEventsArgs, listLiquidityEvents } from "../queries/listLiquidityEvents.js";
import { listPoolSwaps, type PoolSwapsArgs } from "../queries/listPoolSwaps.js";
import { getPool, listPools, type PoolSource, type PoolsArgs } from "../queries/listPools.js";
import { listTokens, type TokenSource, type TokensArgs } from "../queries/listTokens.js";
import { subscribeNetworkStatus, type TimedNetworkStatus } from "../subscriptions/subscribeNetworkStatus.js";
import { subscribeQuote } from "../subscriptions/subscribeQuote.js";
import { type SwapFeedEventSource, subscribeSwaps } from "../subscriptions/subscribeSwaps.js";
import { BigIntScalar, DecimalScalar, TimestampScalar } from "./scalars.js";

const USD_DECIMALS = 18;
const MAX_DAYS = 31;
// uint256 has 78 digits: more fixed digits can only add zeros.
const MAX_DIGITS = 78;

// Token fields that value the token need its network: every parent of Token attaches it.
const withNetwork = (network: NetworkName, token: Token): TokenSource => ({ ...token, network });
const usdOrNull = (value: bigint | undefined) =>
  value === undefined ? null : formatDecimal(value, USD_DECIMALS);

// The native coin trades (and is charted) as its wrapped token.
function dayStatsOf(token: TokenSource, ctx: GraphqlContext): Promise<TokenDayStats> {
  const address =
    token.address === NATIVE ? ctx.reader.getConfig(token.network).native.wrapped : token.address;
  return ctx.tokenDayStats(token.network).load(address);
}

// A subscription's status carries its own instant; a query's is the request's.
const statusTime = (status: NetworkStatus | TimedNetworkStatus, ctx: GraphqlContext): number =>
  "atMs" in status ? status.atMs : ctx.nowMs;

function toSeconds(ms: number | undefined): number | null {
  return ms === undefined ? null : Math.floor(ms / 1000);
}

/** Resolvers of schema/*.graphql: thin, every rule lives in the functions they call. */
export const resolvers = {
  BigInt: BigIntScalar,
  Decimal: DecimalScalar,
  Timestamp: TimestampScalar,
  // Resolvers see the interval as its width in seconds.
  CandleInterval: {
    MINUTE: 60,
    FIVE_MINUTES: 300,
    HOUR: 3_600,
    FOUR_HOURS: 14_400,
    TWELVE_HOURS: 43_200,
    DAY: 86_400,
  },
  LiquidityEventType: { MINT: "mint", BURN: "burn" },

  Query: {
    quote: async (_: unknown, args: QuoteArgs, ctx: GraphqlContext) =>
      quoteOrNoRouteError(await getQuote(ctx.reader, args)),

    async swaps(_: unknown, args: SwapsArgs, ctx: GraphqlContext) {
      const page = await listSwaps(ctx.reader, args, ctx.nowMs);
      // One batched metadata load for the whole page, before any field asks for it.
      await ctx.preloadTokens(
        args.network,
        page.edges.flatMap(({ node }) => [node.tokenIn, node.tokenOut]),
      );
      return {
        pageInfo: page.pageInfo,
        edges: page.edges.map(({ node }) => ({ node: createSwapSource(node, ctx) })),
      };
    },

    poolSwaps: (_: unknown, args: PoolSwapsArgs, ctx: GraphqlContext) =>
      listPoolSwaps(ctx.reader, args, ctx.nowMs),

    async liquidityEvents(_: unknown, args: LiquidityEventsArgs, ctx: GraphqlContext) {
      const page = await listLiquidityEvents(ctx.reader, args, ctx.nowMs);
      const edges = page.edges.map(({ node }) => ({ node: createLiquidityEventSource(node, ctx) }));
      // One batched metadata load for the whole page, as swaps does.
      await ctx.preloadTokens(
        args.network,
        edges.flatMap(({ node }) => [node.amount0.ref, node.amount1.ref]),
      );
      return { pageInfo: page.pageInfo, edges };
    },

    async dailyVolumes(_: unknown, args: { network: NetworkName; days: number }, ctx: GraphqlContext) {
      if (!Number.isInteger(args.days) || args.days < 1 || args.days > MAX_DAYS) {
        throw new BadRequestError(`days must be between 1 and ${MAX_DAYS}.`);
      }
      assertNetworkReady(ctx.reader, args.network, ctx.nowMs);
      const days = await ctx.reader.listDailyVolumes(args.network, args.days, ctx.now);
      return days.map((day) => ({
        date: day.date,
        addressCount: day.traderCount,
        volumeUSD: formatDecimal(day.volumeUsd, USD_DECIMALS),
        tradeCount: day.tradeCount,
        untrackedCount: day.untrackedCount,
      }));
    },

    candles: (_: unknown, args: CandlesArgs, ctx: GraphqlContext) => listCandles(args, ctx),

    tokens: (_: unknown, args: TokensArgs, ctx: GraphqlContext) => listTokens(args, ctx),
    pools: (_: unknown, args: PoolsArgs, ctx: GraphqlContext) => listPools(args, ctx),
    pool: (_: unknown, args: { network: NetworkName; address: string }, ctx: GraphqlContext) =>
      getPool(args, ctx),

    async token(
      _: unknown,
      args: { network: NetworkName; symbolOrAddress: string },
      ctx: GraphqlContext,
    ): Promise<TokenSource | null> {
      assertNetworkConfigured(ctx.reader, args.network);
      const input = parseTokenInput(args.symbolOrAddress, "symbolOrAddress");
      const token =
        input.kind === "symbol"
          ? findSymbol(ctx.reader, args.network, input.symbol)
          : await resolveToken(ctx.reader, args.network, input, "symbolOrAddress");
      return token === undefined ? null : withNetwork(args.network, token);
    },

    status: (_: unknown, __: unknown, ctx: GraphqlContext): NetworkStatus[] =>
      ctx.reader.networks().map((network) => ctx.reader.status(network)),

    networkStatus: (_: unknown, args: { network: NetworkName }, ctx: GraphqlContext): NetworkStatus | null =>
      ctx.reader.networks().includes(args.network) ? ctx.reader.status(args.network) : null,
  },

  // Each subscription yields the value its type resolves from (`resolve` passes it through).
  Subscription: {
    swaps: {
      subscribe: (_: unknown, args: Parameters<typeof subscribeSwaps>[1], ctx: GraphqlContext) =>
        subscribeSwaps(ctx.reader, args),
      async resolve(event: SwapFeedEventSource, _: unknown, ctx: GraphqlContext) {
        // One batched metadata load per event, as Query.swaps does per page.
        await ctx.preloadTokens(
          event.network,
          event.swaps.flatMap((trade) => [trade.tokenIn, trade.tokenOut]),
        );
        return { ...event, swaps: event.swaps.map((trade) => createSwapSource(trade, ctx)) };
      },
    },
    networkStatus: {
      subscribe: (_: unknown, args: { network: NetworkName }, ctx: GraphqlContext) =>
        subscribeNetworkStatus(ctx.reader, args),
      resolve: (status: TimedNetworkStatus) => status,
    },
    quote: {
      subscribe: (_: unknown, args: QuoteArgs, ctx: GraphqlContext) => subscribeQuote(ctx.reader, args),
      resolve: (quote: QuoteResult) => quote,
    },
  },

  // Swap has no resolvers: its parent (createSwapSource) has every field as a property.

  SwapEdge: {
    cursor: (edge: { node: SwapPosition }) => encodeSwapCursor(edge.node),
  },

  // PoolSwap has no resolvers: its parent (listPoolSwaps) has every field; its edge's cursor is its swap's.
  PoolSwapEdge: {
    cursor: (edge: { node: { swap: SwapPosition } }) => encodeSwapCursor(edge.node.swap),
  },

  // LiquidityEvent has no resolvers: its parent (createLiquidityEventSource) has every field.

  LiquidityEventEdge: {
    cursor: (edge: { node: LiquidityEventCursorPosition }) => encodeLiquidityEventCursor(edge.node),
  },

  Quote: {
    sellToken: (quote: QuoteResult) => withNetwork(quote.network, quote.sellToken),
    buyToken: (quote: QuoteResult) => withNetwork(quote.network, quote.buyToken),
    // Pool fields that value the pool need its network.
    route: (quote: QuoteResult) => ({
      ...quote.route,
      pools: quote.route.pools.map((pool): PoolSource => ({ ...pool, network: quote.network })),
    }),
  },

  Pool: {
    kind: (pool: PoolSource) => (pool.v3 === undefined ? "V2" : "V3"),
    feeTier: (pool: PoolSource) => pool.v3?.fee ?? null,
    tickSpacing: (pool: PoolSource) => pool.v3?.tickSpacing ?? null,
    sqrtPriceX96: (pool: PoolSource) => pool.v3State?.sqrtPriceX96 ?? null,
    tick: (pool: PoolSource) => (pool.v3 === undefined ? null : (pool.v3State?.tick ?? null)),
    liquidity: (pool: PoolSource) => pool.v3State?.liquidity ?? null,
    reserve0: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      createLoadedTokenAmountSource(pool.network, pool.token0, pool.reserve0, ctx),
    reserve1: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      createLoadedTokenAmountSource(pool.network, pool.token1, pool.reserve1, ctx),
    balance0: (pool: PoolSource, _: unknown, ctx: GraphqlContext) => {
      const held = poolHoldings(pool);
      return held === undefined
        ? null
        : createLoadedTokenAmountSource(pool.network, pool.token0, held.balance0, ctx);
    },
    balance1: (pool: PoolSource, _: unknown, ctx: GraphqlContext) => {
      const held = poolHoldings(pool);
      return held === undefined
        ? null
        : createLoadedTokenAmountSource(pool.network, pool.token1, held.balance1, ctx);
    },
    liquidityUSD: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull(getPoolLiquidityUsd(ctx.reader, pool.network, pool)),
    activeLiquidityUSD: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull(getPoolLiquidityUsd(ctx.reader, pool.network, pool, "active")),
    volumeUSD24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull((await ctx.poolDayStats(pool.network).load(pool.address)).volumeUsd),
    tradeCount24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      (await ctx.poolDayStats(pool.network).load(pool.address)).tradeCount,
    volumeToken0_24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      (await getPoolDayFigures(pool, ctx)).volumeToken0,
    volumeToken1_24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      (await getPoolDayFigures(pool, ctx)).volumeToken1,
    priceHigh24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      (await getPoolDayFigures(pool, ctx)).priceHigh,
    priceLow24h: async (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      (await getPoolDayFigures(pool, ctx)).priceLow,
    priceChangePercentage24h: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      getPoolPriceChange24h(pool, ctx),
    lastTradePrice: (pool: PoolSource, _: unknown, ctx: GraphqlContext) => getPoolLastTradePrice(pool, ctx),
    blockNumber: (pool: PoolSource, _: unknown, ctx: GraphqlContext) =>
      ctx.reader.poolsBlock(pool.network) ?? null,
    stats: (pool: PoolSource, _: unknown, ctx: GraphqlContext) => getPoolStats(pool, ctx),
    orderBook: (pool: PoolSource, args: OrderBookArgs, ctx: GraphqlContext) =>
      getPoolOrderBook(pool, args, ctx),
  },

  Token: {
    // Market fields are read only when asked for: plain metadata stays free.
    priceUSD: (token: TokenSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull(getTokenValuation(ctx.reader, token.network, token.address).priceUsd),
    priceNative: (token: TokenSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull(getTokenValuation(ctx.reader, token.network, token.address).priceNative),
    liquidityUSD: (token: TokenSource, _: unknown, ctx: GraphqlContext) =>
      usdOrNull(getTokenValuation(ctx.reader, token.network, token.address).liquidityUsd),
    volumeUSD24h: async (token: TokenSource, _: unknown, ctx: GraphqlContext) =>
      formatDecimal((await dayStatsOf(token, ctx)).volumeUsd, USD_DECIMALS),
    tradeCount24h: async (token: TokenSource, _: unknown, ctx: GraphqlContext) =>
      (await dayStatsOf(token, ctx)).tradeCount,
    stats: (token: TokenSource, _: unknown, ctx: GraphqlContext) => getTokenStats(token, ctx),
  },

  // TokenAmount.token is a property of its parent (createTokenAmountSource).
  TokenAmount: {
    amountDecimal(source: TokenAmountSource, args: { digits?: number | null }, ctx: GraphqlContext) {
      const digits = args.digits ?? undefined;
      if (digits !== undefined && (digits < 0 || digits > MAX_DIGITS)) {
        throw new BadRequestError(`digits must be between 0 and ${MAX_DIGITS}.`);
      }
      // Synchronous when the list resolver preloaded the page's tokens (the common case, with no
      // closure made per amount).
      const known = ctx.peekToken(source.network, source.ref);
      if (known !== undefined) return formatDecimal(source.amount, known.decimals, digits);
      return ctx
        .tokens(source.network)
        .load(source.ref)
        .then((token: Token) => formatDecimal(source.amount, token.decimals, digits));
    },
  },

  NetworkStatus: {
    lag: (status: NetworkStatus) => status.lagBlocks,
    headCheckedAt: (status: NetworkStatus) => toSeconds(status.headCheckedAt),
    syncedAt: (status: NetworkStatus) => toSeconds(status.syncedAt),
    dataAgeSeconds: (status: NetworkStatus, _: unknown, ctx: GraphqlContext) =>
      dataAgeSeconds(status, statusTime(status, ctx)) ?? null,
    maxStalenessSeconds: (status: NetworkStatus, _: unknown, ctx: GraphqlContext) =>
      ctx.reader.getConfig(status.network).maxStalenessSeconds,
    pollIntervalMs: (status: NetworkStatus, _: unknown, ctx: GraphqlContext) =>
      ctx.reader.getConfig(status.network).pollIntervalMs,
    historyFrom: (status: NetworkStatus, _: unknown, ctx: GraphqlContext) =>
      Math.floor(statusTime(status, ctx) / 1000) - ctx.reader.getConfig(status.network).windowDays * 86_400,
    serving: (status: NetworkStatus, _: unknown, ctx: GraphqlContext) =>
      findNotReadyReason(
        status,
        ctx.reader.getConfig(status.network).maxStalenessSeconds,
        statusTime(status, ctx),
      ) === undefined,
    // RPC URLs often carry API keys in their path: the public status names no URL.
    error: (status: NetworkStatus) => status.error?.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "[url]") ?? null,
    rateLimit: (status: NetworkStatus) => buildRateLimitNote(status) ?? null,
  },
};
