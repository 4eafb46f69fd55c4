import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { assertNetworkReady } from "./assertNetworkReady.js";
import { formatDecimal } from "./formatDecimal.js";
import {
  formatMarketStats,
  getMarketStats,
  priceChangePercentage,
  tokenStatsSubject,
} from "./getMarketStats.js";
import { formatPoolPrice } from "./listCandles.js";
import type { PoolSource } from "./listPools.js";
import type { TokenSource } from "./listTokens.js";

const USD_DECIMALS = 18;
const DAY = 86_400;

/** Token.stats: the token's market stats, prices in USD. */
export async function getTokenStats(token: TokenSource, ctx: GraphqlContext) {
  const subject = tokenStatsSubject(ctx.reader, token.network, token.address);
  const data = await getMarketStats(ctx.reader, subject, ctx.now, ctx.nowMs);
  return formatMarketStats(data, (price) => formatDecimal(price, USD_DECIMALS));
}

/** Pool.priceChangePercentage24h: stats.h24.priceChangePercentage from its two price look-ups alone. */
export async function getPoolPriceChange24h(pool: PoolSource, ctx: GraphqlContext): Promise<string | null> {
  const { network } = pool;
  assertNetworkReady(ctx.reader, network, ctx.nowMs);
  const maxBlock = ctx.reader.status(network).indexedBlock ?? 0n;
  const priceAt = (beforeTimestamp: number) =>
    ctx.reader.getLastPrice(network, {
      subject: { kind: "pool", pool: pool.address },
      withNative: false,
      beforeTimestamp,
      maxBlock,
    });
  const [open, price] = await Promise.all([priceAt(ctx.now - DAY), priceAt(ctx.now)]);
  return priceChangePercentage(open, price);
}

/** Pool.stats: the pool's market stats, prices of token0 in token1. */
export async function getPoolStats(pool: PoolSource, ctx: GraphqlContext) {
  const { network } = pool;
  const [data, token0, token1] = await Promise.all([
    getMarketStats(
      ctx.reader,
      { network, subject: { kind: "pool", pool: pool.address }, withNative: false },
      ctx.now,
      ctx.nowMs,
    ),
    ctx.tokens(network).load(pool.token0),
    ctx.tokens(network).load(pool.token1),
  ]);
  return formatMarketStats(data, (price) => formatPoolPrice(price, token0.decimals, token1.decimals));
}
