import { formatPoolPrice } from "../../domain/formatPoolPrice.js";
import type { Token } from "../../domain/types.js";
import { assertNetworkReady } from "../../views/assertNetworkReady.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import type { PoolSource } from "./listPools.js";

/**
 * Pool.lastTradePrice: the executed price (token1 per whole token0, amount1 / amount0 of the pass,
 * 36 digits of smallest units as the pool candles print it) of the newest swap through the pool
 * at or below the indexed block, trades of the current second included; null when the stored
 * window holds none. The listings' `last_price` is this (the standards ask for the last traded
 * price, not the pool's state). The pools of a query are read together (ctx.poolPrices).
 */
export async function getPoolLastTradePrice(pool: PoolSource, ctx: GraphqlContext): Promise<string | null> {
  const { network } = pool;
  assertNetworkReady(ctx.reader, network, ctx.nowMs);
  const { last: price } = await ctx.poolPrices(network).load(`last:${pool.address}`);
  if (price === undefined) return null;
  const decimalsOf = async (address: PoolSource["token0"]) =>
    (ctx.peekToken(network, address) ?? ((await ctx.tokens(network).load(address)) as Token)).decimals;
  return formatPoolPrice(price, await decimalsOf(pool.token0), await decimalsOf(pool.token1));
}
