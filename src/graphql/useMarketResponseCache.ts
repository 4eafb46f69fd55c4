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

/**
 * The state every cacheable answer is a function of: per configured network, the block and
 * version of the pool graph (quotes; the version also moves when a new token's pools are
 * discovered without a new block) and whether the network serves now (so an answer cached while
 * fresh is never served once the data is too old: that request gets its NOT_READY).
 */
export function marketStateKey(reader: MarketReader): string {
  const nowMs = Date.now();
  let key = "";
  for (const network of reader.networks()) {
    const serving =
      findNotReadyReason(reader.status(network), reader.getConfig(network).maxStalenessSeconds, nowMs) ===
      undefined;
    key += `${network}:${reader.poolsBlock(network)}:${reader.getPoolIndex(network).version}:${serving ? 1 : 0};`;
  }
  return key;
}

/**
 * Caches whole answers of operations that read only the pool graph and token metadata (quote,
 * token), keyed by the document, its variables and marketStateKey, so an answer never outlives
 * the indexed state it came from. Whatever depends on the clock or on the trade store is never
 * cached: status and networkStatus (data age), swaps (a window that slides with time),
 * dailyVolumes (today's running sum), candles (the current bucket grows, the default range
 * slides), tokens, pools and a token's or pool's 24-hour volume and trade count (a sliding
 * window); neither is an answer with errors.
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
    "Query.tokens": 0,
    "Query.pools": 0,
    "Token.volumeUSD24h": 0,
    "Token.tradeCount24h": 0,
    "Pool.volumeUSD24h": 0,
    "Pool.tradeCount24h": 0,
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
