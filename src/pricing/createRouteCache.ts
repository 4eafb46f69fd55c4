import type { Address } from "../domain/types.js";
import { countEvent } from "../lib/countEvent.js";
import { type FindQuoteRoutesArgs, findQuoteRoutes, type QuoteRoutes } from "./findQuoteRoutes.js";
import type { PoolIndex } from "./types.js";

/** Quote routes remembered per pool graph until the graph changes (its version moves). */
export interface RouteCache {
  findQuoteRoutes(args: FindQuoteRoutesArgs): QuoteRoutes;
}

const ROUTE_CACHE = { cache: "route" };

interface Entry {
  version: number;
  routes: QuoteRoutes;
}

/**
 * Creates a cache in front of findQuoteRoutes: a quote only changes when a pool's reserves do,
 * and the same pairs are asked for again and again between two blocks. `maxEntries` bounds memory
 * (the cache of a graph starts over when it is full).
 */
export function createRouteCache(maxEntries = 10_000): RouteCache {
  // Per graph, then per base-token set (one constant set per network): no per-call key building
  // for the set itself.
  const byIndex = new WeakMap<PoolIndex, WeakMap<ReadonlySet<Address>, Map<string, Entry>>>();
  return {
    findQuoteRoutes(args) {
      let bySet = byIndex.get(args.index);
      if (bySet === undefined) {
        bySet = new WeakMap();
        byIndex.set(args.index, bySet);
      }
      let entries = bySet.get(args.baseTokens);
      if (entries === undefined) {
        entries = new Map();
        bySet.set(args.baseTokens, entries);
      }
      const key = `${args.sell}|${args.buy}|${args.amountIn}|${args.unitAmount}|${args.maxHops ?? 3}`;
      const version = args.index.version;
      const hit = entries.get(key);
      if (hit !== undefined && hit.version === version) {
        countEvent("cache_hits", ROUTE_CACHE);
        return hit.routes;
      }
      countEvent("cache_misses", ROUTE_CACHE);
      const routes = findQuoteRoutes(args);
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { version, routes });
      return routes;
    },
  };
}
