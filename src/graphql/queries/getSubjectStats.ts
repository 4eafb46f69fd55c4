import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import { assertNetworkReady } from "../../views/assertNetworkReady.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { formatMarketStats, getMarketStats, tokenStatsSubject } from "./getMarketStats.js";
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
 * Pool.priceChangePercentage24h (PoolPrices.change24h; the pools of a query are read together,
 * ctx.poolPrices); 503 when the network does not serve.
 */
export async function getPoolPriceChange24h(pool: PoolSource, ctx: GraphqlContext): Promise<string | null> {
  assertNetworkReady(ctx.reader, pool.network, ctx.nowMs);
  return (await ctx.poolPrices(pool.network).load(`change24h:${pool.address}`)).change24h;
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
