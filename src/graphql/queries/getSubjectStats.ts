import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import { assertNetworkReady } from "../../views/assertNetworkReady.js";
import { getRollingPoolDay } from "../../views/getRollingPoolDay.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import {
  formatMarketStats,
  getMarketStats,
  priceChangePercentage,
  tokenStatsSubject,
} from "./getMarketStats.js";
import type { PoolSource } from "./listPools.js";
import type { TokenSource } from "./listTokens.js";

const USD_DECIMALS = 18;

/** Token.stats: the token's market stats, prices in USD. */
export async function getTokenStats(token: TokenSource, ctx: GraphqlContext) {
  const subject = tokenStatsSubject(ctx.reader, token.network, token.address);
  const data = await getMarketStats(ctx.reader, subject, ctx.now, ctx.nowMs);
  return formatMarketStats(data, (price) => formatDecimal(price, USD_DECIMALS));
}

/**
 * Pool.priceChangePercentage24h over the rolling 24 hours of the pool's other 24-hour figures
 * (getRollingPoolDay: (at - 24 h, at], at the indexed block's time): the last price at or before
 * `at` (the last trade's) against the last at or before at - 24 h. Two price look-ups.
 */
export async function getPoolPriceChange24h(pool: PoolSource, ctx: GraphqlContext): Promise<string | null> {
  const { network } = pool;
  assertNetworkReady(ctx.reader, network, ctx.nowMs);
  const day = await getRollingPoolDay(ctx.reader, network, ctx.now);
  const priceAt = (atOrBefore: number) =>
    ctx.reader.getLastPrice(network, {
      subject: { kind: "pool", pool: pool.address },
      withNative: false,
      beforeTimestamp: atOrBefore + 1,
      maxBlock: day.block,
    });
  const [open, price] = await Promise.all([priceAt(day.after), priceAt(day.at)]);
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
