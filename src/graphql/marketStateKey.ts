import { findNotReadyReason } from "../views/assertNetworkReady.js";
import type { MarketState } from "../views/types.js";

const HOUR_MS = 3_600_000;

/**
 * The state every keepable answer is a function of: per configured network, the block and
 * version of the pool graph (quotes, prices, liquidity; the version also moves when a new token's
 * pools are discovered without a new block), the indexed block (the stored trades behind 24-hour
 * volumes) and whether the network serves now (so an answer kept while fresh is never served
 * once the data is too old: that request gets its NOT_READY); and the hour, since 24-hour
 * volumes are summed over whole hourly buckets up to the one holding now.
 */
export function marketStateKey(reader: MarketState): string {
  const nowMs = Date.now();
  let key = "";
  for (const network of reader.networks()) {
    const status = reader.status(network);
    const serving =
      findNotReadyReason(status, reader.getConfig(network).maxStalenessSeconds, nowMs) === undefined;
    key += `${network}:${reader.poolsBlock(network)}:${reader.getPoolIndex(network).version}:${status.indexedBlock}:${serving ? 1 : 0};`;
  }
  return `${key}h${Math.floor(nowMs / HOUR_MS)}`;
}
