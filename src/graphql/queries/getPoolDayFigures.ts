import { formatDecimal } from "../../domain/formatDecimal.js";
import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Token } from "../../domain/types.js";
import { getRollingPoolDay } from "../../views/getRollingPoolDay.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import type { PoolSource } from "./listPools.js";

/** A pool's 24-hour token volumes and price range (Pool.volumeToken0_24h ... priceLow24h), as decimals. */
export interface PoolDayFigures {
  volumeToken0: string;
  volumeToken1: string;
  priceHigh: string | null;
  priceLow: string | null;
}

/** The pool's figures over the rolling 24 hours up to the indexed block's time, from its Swap logs. */
export async function getPoolDayFigures(pool: PoolSource, ctx: GraphqlContext): Promise<PoolDayFigures> {
  const day = await getRollingPoolDay(ctx.reader, pool.network, ctx.now);
  const swaps = day.totals.get(pool.address);
  const decimalsOf = async (address: PoolSource["token0"]) =>
    (ctx.peekToken(pool.network, address) ?? ((await ctx.tokens(pool.network).load(address)) as Token))
      .decimals;
  const d0 = await decimalsOf(pool.token0);
  const d1 = await decimalsOf(pool.token1);
  return {
    volumeToken0: formatDecimal(swaps?.volume0 ?? 0n, d0),
    volumeToken1: formatDecimal(swaps?.volume1 ?? 0n, d1),
    priceHigh: swaps?.high === undefined ? null : formatPoolPrice(swaps.high, d0, d1),
    priceLow: swaps?.low === undefined ? null : formatPoolPrice(swaps.low, d0, d1),
  };
}
