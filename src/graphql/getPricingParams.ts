import type { MarketReader } from "../domain/market.js";
import type { NetworkName } from "../domain/types.js";
import type { PricingParams } from "../pricing/types.js";

// One params object per reader and network: the pricing memo (usdMath.memoPrice) keeps its
// prices only while it sees the same params, so a fresh object per request would recompute them.
const cache = new WeakMap<MarketReader, Map<NetworkName, PricingParams>>();

/** The USD pricing rules' parameters of a network, as the indexer derives them from its configuration. */
export function getPricingParams(reader: MarketReader, network: NetworkName): PricingParams {
  let byNetwork = cache.get(reader);
  if (byNetwork === undefined) {
    byNetwork = new Map();
    cache.set(reader, byNetwork);
  }
  let params = byNetwork.get(network);
  if (params === undefined) {
    const config = reader.getConfig(network);
    params = {
      wrappedNative: config.native.wrapped,
      stablecoins: new Set(config.stablecoins),
      baseTokens: new Set(config.baseTokens),
      minLiquidityUsd: config.minLiquidityUsd,
      decimals: (token) => reader.getToken(network, token)?.decimals,
    };
    byNetwork.set(network, params);
  }
  return params;
}
