import { type Address, NATIVE, type NetworkName, type TokenRef, USD_SCALE } from "../../domain/types.js";
import { getNativePriceUsd } from "../../pricing/getNativePriceUsd.js";
import { getTokenPriceUsd } from "../../pricing/getTokenPriceUsd.js";
import { poolHoldings } from "../../pricing/poolHoldings.js";
import { amountToUsd } from "../../pricing/usdMath.js";
import { getPricingParams } from "../../views/getPricingParams.js";
import type { MarketState } from "../../views/types.js";

/** What the live pool graph says a token is worth now (10^18-scaled; undefined when unpriced). */
export interface TokenValuation {
  /** USD per whole token by the pricing rules. */
  priceUsd: bigint | undefined;
  /** Native coins per whole token: priceUsd / the wrapped native coin's USD price. */
  priceNative: bigint | undefined;
  /**
   * What every indexed pool that holds the token holds of it (V2 reserves, V3 balances: see
   * poolHoldings), valued at priceUsd and summed (thin pools included: the amount is there, only
   * its price is not trusted).
   */
  liquidityUsd: bigint | undefined;
}

/**
 * Values a token (the native coin as its wrapped token) from the live pool index with the USD
 * pricing rules; in memory, no I/O.
 */
export function getTokenValuation(reader: MarketState, network: NetworkName, ref: TokenRef): TokenValuation {
  const params = getPricingParams(reader, network);
  const index = reader.getPoolIndex(network);
  const address: Address = ref === NATIVE ? params.wrappedNative : ref;
  const priceUsd = getTokenPriceUsd(index, params, address);
  if (priceUsd === undefined) return { priceUsd, priceNative: undefined, liquidityUsd: undefined };
  const nativeUsd = getNativePriceUsd(index, params);
  const decimals = params.decimals(address);
  let liquidityUsd: bigint | undefined;
  if (decimals !== undefined) {
    liquidityUsd = 0n;
    for (const pool of index.poolsOf(address)) {
      // What each pool holds of it (a V3 pool whose balances are not known yet adds nothing).
      const held = poolHoldings(pool);
      if (held === undefined) continue;
      const amount = pool.token0 === address ? held.balance0 : held.balance1;
      liquidityUsd += amountToUsd(amount, decimals, priceUsd);
    }
  }
  return {
    priceUsd,
    priceNative:
      nativeUsd === undefined || nativeUsd === 0n
        ? undefined
        : address === params.wrappedNative
          ? USD_SCALE
          : (priceUsd * USD_SCALE) / nativeUsd,
    liquidityUsd,
  };
}
