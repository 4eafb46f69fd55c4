import type { NetworkConfig } from "../../src/config/types.js";
import type { PricingParams } from "../../src/pricing/types.js";
import type { Store } from "../../src/store/types.js";

/**
 * The pricing rules' inputs for a network as a test sees them: its configuration, with the
 * decimals of its token list and of the tokens the indexer stored.
 */
export async function pricingParamsOf(config: NetworkConfig, store: Store): Promise<PricingParams> {
  const decimals = new Map<string, number>();
  for (const token of config.tokenList.tokens) decimals.set(token.address.toLowerCase(), token.decimals);
  for (const token of await store.listTokens(config.name)) decimals.set(token.address, token.decimals);
  return {
    wrappedNative: config.native.wrapped,
    stablecoins: new Set(config.stablecoins),
    baseTokens: new Set(config.baseTokens),
    minLiquidityUsd: config.minLiquidityUsd,
    decimals: (token) => decimals.get(token),
  };
}
