import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { formatDecimal } from "./formatDecimal.js";
import { formatMarketStats, getMarketStats, tokenStatsSubject } from "./getMarketStats.js";
import { formatPoolPrice } from "./listCandles.js";
import type { PoolSource } from "./listPools.js";
import type { TokenSource } from "./listTokens.js";

const USD_DECIMALS = 18;

/** Token.stats: the token's market stats, prices in USD. */
export async function getTokenStats(token: TokenSource, ctx: GraphqlContext) {
  const subject = tokenStatsSubject(ctx.reader, token.network, token.address);
  const data = await getMarketStats(ctx.reader, subject, ctx.now, ctx.nowMs);
  return formatMarketStats(data, (price) => formatDecimal(price, USD_DECIMALS));
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
