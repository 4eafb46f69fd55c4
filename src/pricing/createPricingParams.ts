import type { Address } from "../domain/types.js";
import type { PricingParams } from "./types.js";

/** What of a network's configuration the USD pricing rules read. */
export interface PricingConfig {
  native: { wrapped: Address };
  stablecoins: readonly Address[];
  baseTokens: readonly Address[];
  minLiquidityUsd: bigint;
}

/**
 * The USD pricing rules' parameters of a network. Build them once per network and keep them:
 * the price memo (usdMath.memoPrice) keeps its prices only while it sees the same object.
 */
export function createPricingParams(
  config: PricingConfig,
  decimals: (token: Address) => number | undefined,
): PricingParams {
  return {
    wrappedNative: config.native.wrapped,
    stablecoins: new Set(config.stablecoins),
    baseTokens: new Set(config.baseTokens),
    minLiquidityUsd: config.minLiquidityUsd,
    decimals,
  };
}
