import { type Cache, createInMemoryCache, useResponseCache } from "@graphql-yoga/plugin-response-cache";
import type { Plugin } from "graphql-yoga";
import { countEvent } from "../domain/countEvent.js";
import type { MarketReader } from "../domain/market.js";
import { findNotReadyReason } from "./assertNetworkReady.js";
import type { GraphqlAnswerCache } from "./createGraphqlAnswerCache.js";

/** Options of useMarketResponseCache. */
export interface MarketResponseCacheOptions {
  /** The HTTP edge's byte cache, told which answers are cacheable. */
  answers?: GraphqlAnswerCache;
  /** Upper bound on an answer's life in ms; the key changes long before on a live chain. */
  ttlMs?: number;
  /** Answers kept (least recently used dropped first). */
  maxEntries?: number;
}

const HOUR_MS = 3_600_000;

/**
 * The state every cacheable answer is a function of: per configured network, the block and
 * version of the pool graph (quotes, prices, liquidity; the version also moves when a new token's
 * pools are discovered without a new block), the indexed block (the stored trades behind 24-hour
 * volumes) and whether the network serves now (so an answer cached while fresh is never served
 * once the data is too old: that request gets its NOT_READY); and the hour, since 24-hour
 * volumes are summed over whole hourly buckets up to the one holding now.
 */
export function marketStateKey(reader: MarketReader): string {
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

/**
 * Caches whole answers of operations that are a function of the market state (marketStateKey):
 * quotes, token metadata and prices, tokens and pools with their liquidity and 24-hour volumes,
 * keyed by the document, its variables and that state, so an answer never outlives the indexed
 * state and hour it came from. Whatever depends on the clock more finely, or on the trade store
 * beyond the 24-hour buckets, is never cached: status and networkStatus (data age), swaps (a
 * window that slides with time), dailyVolumes (today's running sum), candles (the current bucket
 * grows, the default range slides); neither is an answer with errors.
 */
export function useMarketResponseCache(
  reader: MarketReader,
  options: MarketResponseCacheOptions = {},
): Plugin {
  const uncached = {
    NetworkStatus: 0,
    "Query.status": 0,
    "Query.networkStatus": 0,
    "Query.swaps": 0,
    "Query.dailyVolumes": 0,
    "Query.candles": 0,
  };
  return useResponseCache({
    session: () => marketStateKey(reader),
    ttl: options.ttlMs ?? 60_000,
    ttlPerSchemaCoordinate: uncached,
    shouldCacheResult: ({ result }) => result.errors === undefined || result.errors.length === 0,
    includeExtensionMetadata: false,
    cache:
      options.answers === undefined
        ? countingCache(createInMemoryCache({ max: options.maxEntries ?? 1_000 }))
        : options.answers.wrap(countingCache(createInMemoryCache({ max: options.maxEntries ?? 1_000 }))),
  });
}

const LABELS = { cache: "graphql_response" };

/**
 * Counts hits and misses of the response cache. The plugin looks up every operation, also those
 * it never caches (status, swaps), so a miss is counted when an answer is stored: the lookups
 * that could have hit.
 */
function countingCache(cache: Cache): Cache {
  return {
    get(key) {
      const found = cache.get(key);
      const count = <T>(value: T): T => {
        if (value !== undefined && value !== null) countEvent("cache_hits", LABELS);
        return value;
      };
      return found instanceof Promise ? found.then(count) : count(found);
    },
    set(...args) {
      countEvent("cache_misses", LABELS);
      return cache.set(...args);
    },
    invalidate: (...args) => cache.invalidate(...args),
  };
}
