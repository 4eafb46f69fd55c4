import type { NetworkName } from "../../domain/types.js";
import { getTokenPriceUsd } from "../../pricing/getTokenPriceUsd.js";
import type { PoolState } from "../../pricing/types.js";
import { amountToUsd } from "../../pricing/usdMath.js";
import type { MarketReader } from "../../views/types.js";
import { getPricingParams } from "./getPricingParams.js";

/**
 * A pool's reserves valued in USD (10^18-scaled) by the pricing rules now: each reserve at its
 * token's USD price, summed. When only one token is priced, twice that side (a constant-product
 * pool holds equal value on both sides at its own price). Undefined when neither is priced (or
 * a priced side's decimals are unknown). In memory: prices are cached per pool-index version.
 */
export function getPoolLiquidityUsd(
  reader: MarketReader,
  network: NetworkName,
  pool: PoolState,
): bigint | undefined {
  const params = getPricingParams(reader, network);
  const index = reader.getPoolIndex(network);
  const side = (token: PoolState["token0"], reserve: bigint): bigint | undefined => {
    const price = getTokenPriceUsd(index, params, token);
    const decimals = params.decimals(token);
    return price === undefined || decimals === undefined ? undefined : amountToUsd(reserve, decimals, price);
  };
  const usd0 = side(pool.token0, pool.reserve0);
  const usd1 = side(pool.token1, pool.reserve1);
  if (usd0 !== undefined && usd1 !== undefined) return usd0 + usd1;
  if (usd0 !== undefined) return 2n * usd0;
  if (usd1 !== undefined) return 2n * usd1;
  return undefined;
}
