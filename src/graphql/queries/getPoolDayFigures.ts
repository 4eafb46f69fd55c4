import type { Token } from "../../domain/types.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { formatDecimal } from "./formatDecimal.js";
import { formatPoolPrice } from "./listCandles.js";
import type { PoolSource } from "./listPools.js";

/** A pool's 24-hour token volumes and price range (Pool.volumeToken0_24h ... priceLow24h), as decimals. */
export interface PoolDayFigures {
  volumeToken0: string;
  volumeToken1: string;
  priceHigh: string | null;
  priceLow: string | null;
}

/** The pool's figures over the hourly window of Pool.volumeUSD24h, from its summed candles. */
export async function getPoolDayFigures(pool: PoolSource, ctx: GraphqlContext): Promise<PoolDayFigures> {
  const stats = await ctx.poolDayStats(pool.network).load(pool.address);
  const decimalsOf = async (address: PoolSource["token0"]) =>
    (ctx.peekToken(pool.network, address) ?? ((await ctx.tokens(pool.network).load(address)) as Token))
      .decimals;
  const d0 = await decimalsOf(pool.token0);
  const d1 = await decimalsOf(pool.token1);
  return {
    volumeToken0: formatDecimal(stats.volume0, d0),
    volumeToken1: formatDecimal(stats.volume1, d1),
    priceHigh: stats.high === undefined ? null : formatPoolPrice(stats.high, d0, d1),
    priceLow: stats.low === undefined ? null : formatPoolPrice(stats.low, d0, d1),
  };
}
