import type { NetworkName } from "../domain/types.js";
import { getTokenPriceUsd } from "../pricing/getTokenPriceUsd.js";
import { poolHoldings } from "../pricing/poolHoldings.js";
import type { PoolState } from "../pricing/types.js";
import { amountToUsd } from "../pricing/usdMath.js";
import { getPricingParams } from "./getPricingParams.js";
import type { MarketState } from "./types.js";

const Q192 = 1n << 192n;

/**
 * A pool's liquidity in USD (10^18-scaled) by the pricing rules now. `held` (the default, what
 * every published liquidity figure is): the tokens the pool holds (see poolHoldings), each at its
 * token's USD price, summed. `active`: a V3 pool's in-range depth, the virtual reserves of its
 * active liquidity at the current price (a V2 pair: the same as held). When only one token is
 * priced, the other side is valued at the pool's own price (a V2 pair: twice the priced side,
 * which is what its reserves' ratio says; a V3 pool: the other token's amount converted at
 * sqrtPriceX96). Undefined when neither is priced (or a priced side's decimals are unknown) or a
 * V3 pool's balances are not known. In memory: prices are cached per pool-index version.
 */
export function getPoolLiquidityUsd(
  reader: MarketState,
  network: NetworkName,
  pool: PoolState,
  basis: "held" | "active" = "held",
): bigint | undefined {
  const amounts =
    basis === "active" ? { balance0: pool.reserve0, balance1: pool.reserve1 } : poolHoldings(pool);
  if (amounts === undefined) return undefined;
  const params = getPricingParams(reader, network);
  const index = reader.getPoolIndex(network);
  const price0 = getTokenPriceUsd(index, params, pool.token0);
  const price1 = getTokenPriceUsd(index, params, pool.token1);
  const decimals0 = params.decimals(pool.token0);
  const decimals1 = params.decimals(pool.token1);
  const priced0 = price0 !== undefined && decimals0 !== undefined;
  const priced1 = price1 !== undefined && decimals1 !== undefined;
  const { balance0, balance1 } = amounts;
  if (priced0 && priced1) {
    return amountToUsd(balance0, decimals0, price0) + amountToUsd(balance1, decimals1, price1);
  }
  const sqrtPrice = pool.v3State?.sqrtPriceX96;
  if (priced0) {
    // token1 in token0 at the pool's price: amount1 / (sqrtP^2 / 2^192).
    const other =
      pool.v3 === undefined || sqrtPrice === undefined || sqrtPrice === 0n
        ? balance0
        : (balance1 * Q192) / (sqrtPrice * sqrtPrice);
    return amountToUsd(balance0 + other, decimals0, price0);
  }
  if (priced1) {
    const other =
      pool.v3 === undefined || sqrtPrice === undefined ? balance1 : (balance0 * sqrtPrice * sqrtPrice) / Q192;
    return amountToUsd(balance1 + other, decimals1, price1);
  }
  return undefined;
}
