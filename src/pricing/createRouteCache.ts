import type { Address } from "../domain/types.js";
import { countEvent } from "../lib/countEvent.js";
import { createLruCache, type LruCache } from "../lib/createLruCache.js";
import { type FindQuoteRoutesArgs, findQuoteRoutes, type QuoteRoutes } from "./findQuoteRoutes.js";
import type { PoolIndex, Route } from "./types.js";

/** Quote routes remembered per pool graph until the graph changes (its version moves). */
export interface RouteCache {
  findQuoteRoutes(args: FindQuoteRoutesArgs): QuoteRoutes;
}

const ROUTE_CACHE = { cache: "route" };

interface Entry {
  version: number;
  routes: QuoteRoutes;
}

// What one kept entry costs, roughly (V8 objects: ~16 bytes a field, a bigint ~24-40): the
// entry and its QuoteRoutes, each route's path and hops (the pools themselves are the graph's).
const ENTRY_BYTES = 200;
const ROUTE_BYTES = 160;
const HOP_BYTES = 150;
const PATH_TOKEN_BYTES = 16;

function routeBytes(route: Route | undefined): number {
  return route === undefined
    ? 0
    : ROUTE_BYTES + route.hops.length * HOP_BYTES + route.path.length * PATH_TOKEN_BYTES;
}

function entryBytes(key: string, entry: Entry): number {
  const { routes } = entry;
  const own =
    routes.kind === "route"
      ? routeBytes(routes.route) + (routes.unitRoute === routes.route ? 0 : routeBytes(routes.unitRoute))
      : routes.kind === "noOutput"
        ? routeBytes(routes.probe) + routeBytes(routes.unitRoute)
        : 0;
  return ENTRY_BYTES + key.length + own;
}

/**
 * Creates a cache in front of findQuoteRoutes: a quote only changes when a pool's reserves do,
 * and the same pairs are asked for again and again between two blocks. Memory is bounded per pool
 * graph by `maxEntries` and by `maxBytes` (default 16 MiB, as entryBytes counts them), least
 * recently used out first: a flood of distinct amounts cannot grow it past either.
 */
export function createRouteCache(maxEntries = 10_000, maxBytes = 16 * 1024 * 1024): RouteCache {
  // Per graph, then per base-token set (one constant set per network): no per-call key building
  // for the set itself.
  const byIndex = new WeakMap<PoolIndex, WeakMap<ReadonlySet<Address>, LruCache<Entry>>>();
  return {
    findQuoteRoutes(args) {
      let bySet = byIndex.get(args.index);
      if (bySet === undefined) {
        bySet = new WeakMap();
        byIndex.set(args.index, bySet);
      }
      let entries = bySet.get(args.baseTokens);
      if (entries === undefined) {
        entries = createLruCache<Entry>({ maxEntries, maxBytes, sizeOf: entryBytes });
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
      entries.set(key, { version, routes });
      return routes;
    },
  };
}
