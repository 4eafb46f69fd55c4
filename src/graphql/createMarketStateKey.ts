import { dataAgeSeconds, findNotReadyReason } from "../views/assertNetworkReady.js";
import type { MarketReader } from "../views/types.js";

const HOUR_MS = 3_600_000;

/**
 * The state every keepable answer is a function of: per configured network, the block and
 * version of the pool graph (quotes, prices, liquidity; the version also moves when a new token's
 * pools are discovered without a new block), the indexed block (the stored trades behind 24-hour
 * volumes) and whether the network serves now (so an answer kept while fresh is never served
 * once the data is too old: that request gets its NOT_READY); and the hour, since 24-hour
 * volumes are summed over whole hourly buckets up to the one holding now.
 *
 * Read on every GraphQL request, so the key is made again only when what it is made of changed:
 * each network's status object (a new one whenever it changes), its data age in whole seconds
 * (with the status, all that whether it serves depends on), its pool block and version, and the hour.
 */
export function createMarketStateKey(reader: MarketReader): () => string {
  // What the key was made of (per network its status, data age, pool block and version; then
  // the hour), and what it is made of now: two arrays, swapped when they differ.
  let madeOf: unknown[] = [];
  let parts: unknown[] = [];
  let key = "";
  return () => {
    const nowMs = Date.now();
    let i = 0;
    for (const network of reader.networks()) {
      const status = reader.status(network);
      parts[i++] = status;
      parts[i++] = dataAgeSeconds(status, nowMs);
      parts[i++] = reader.poolsBlock(network);
      parts[i++] = reader.getPoolIndex(network).version;
    }
    parts[i++] = Math.floor(nowMs / HOUR_MS);
    let same = i === madeOf.length;
    for (let j = 0; same && j < i; j++) same = parts[j] === madeOf[j];
    if (same) return key;
    parts.length = i;
    [madeOf, parts] = [parts, madeOf];
    key = buildKey(reader, nowMs);
    return key;
  };
}

function buildKey(reader: MarketReader, nowMs: number): string {
  let key = "";
  for (const network of reader.networks()) {
    const status = reader.status(network);
    const serving =
      findNotReadyReason(status, reader.getConfig(network).maxStalenessSeconds, nowMs) === undefined;
    key += `${network}:${reader.poolsBlock(network)}:${reader.getPoolIndex(network).version}:${status.indexedBlock}:${serving ? 1 : 0};`;
  }
  return `${key}h${Math.floor(nowMs / HOUR_MS)}`;
}
