import { countEvent } from "../domain/countEvent.js";
import type { Address } from "../domain/types.js";
import { type FindBestRouteArgs, findBestRoute } from "./findBestRoute.js";
import type { PoolIndex, Route } from "./types.js";

/** Best routes remembered per pool graph until the graph changes (its version moves). */
export interface RouteCache {
  findBestRoute(args: FindBestRouteArgs): Route | undefined;
}

const ROUTE_CACHE = { cache: "route" };

interface Entry {
  version: number;
  route: Route | undefined;
}

/**
 * Creates a cache in front of findBestRoute: a quote only changes when a pool's reserves do, and
 * the same pairs are asked for again and again between two blocks. `maxEntries` bounds memory
 * (the cache of a graph starts over when it is full).
 */
export function createRouteCache(maxEntries = 10_000): RouteCache {
  // Per graph, then per base-token set (one constant set per network): no per-call key building
  // for the set itself.
  const byIndex = new WeakMap<PoolIndex, WeakMap<ReadonlySet<Address>, Map<string, Entry>>>();
  return {
    findBestRoute(args) {
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
      const key = `${args.sell}|${args.buy}|${args.amountIn}|${args.maxHops ?? 3}`;
      const version = args.index.version;
      const hit = entries.get(key);
      if (hit !== undefined && hit.version === version) {
        countEvent("cache_hits", ROUTE_CACHE);
        return hit.route;
      }
      countEvent("cache_misses", ROUTE_CACHE);
      const route = findBestRoute(args);
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, { version, route });
      return route;
    },
  };
}
