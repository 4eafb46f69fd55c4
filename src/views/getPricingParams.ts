import type { NetworkName } from "../domain/types.js";
import { createPricingParams } from "../pricing/createPricingParams.js";
import type { PricingParams } from "../pricing/types.js";
import type { MarketState } from "./types.js";

// One params object per reader and network (see createPricingParams).
const cache = new WeakMap<MarketState, Map<NetworkName, PricingParams>>();

/** The USD pricing rules' parameters of a network, made once per reader and network. */
export function getPricingParams(reader: MarketState, network: NetworkName): PricingParams {
  let byNetwork = cache.get(reader);
  if (byNetwork === undefined) {
    byNetwork = new Map();
    cache.set(reader, byNetwork);
  }
  let params = byNetwork.get(network);
  if (params === undefined) {
    params = createPricingParams(
      reader.getConfig(network),
      (token) => reader.getToken(network, token)?.decimals,
    );
    byNetwork.set(network, params);
  }
  return params;
}
