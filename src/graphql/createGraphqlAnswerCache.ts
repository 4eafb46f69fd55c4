import { AsyncLocalStorage } from "node:async_hooks";
import type { Cache } from "@graphql-yoga/plugin-response-cache";
import { createLruCache } from "../domain/createLruCache.js";

/** An HTTP answer of /graphql kept as bytes, with the headers it went out with. */
export interface GraphqlAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/**
 * The bytes of GraphQL answers the response cache judged cacheable, for the HTTP edge: a
 * repeated request (same method, body or query string, Accept) against the same market state
 * is answered from these bytes without going through yoga at all. Which answers qualify is
 * decided by the response cache (useMarketResponseCache: quote and token only, no errors); this
 * cache learns it by wrapping that cache's store and watching the request in flight.
 */
export interface GraphqlAnswerCache {
  /** Wraps the response cache's store: a hit or a store during `run` marks the answer cacheable. */
  wrap(store: Cache): Cache;
  /** Runs one request through yoga; `cacheable` says whether its answer may be kept. */
  run<T>(handle: () => Promise<T>): Promise<{ value: T; cacheable: boolean }>;
  get(key: string): GraphqlAnswer | undefined;
  set(key: string, answer: GraphqlAnswer): void;
  readonly size: number;
}

/**
 * Creates the answer cache: at most `maxEntries` answers and `maxBytes` of bodies, least
 * recently used out first. Keys must carry the market state (see useMarketResponseCache).
 */
export function createGraphqlAnswerCache(
  options: { maxEntries?: number; maxBytes?: number } = {},
): GraphqlAnswerCache {
  const flight = new AsyncLocalStorage<{ cacheable: boolean }>();
  const answers = createLruCache<GraphqlAnswer>({
    maxEntries: options.maxEntries ?? 1_000,
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
    // Body, key and about 200 bytes of headers and bookkeeping.
    sizeOf: (key, answer) => key.length + answer.body.length + 200,
  });

  const mark = () => {
    const state = flight.getStore();
    if (state !== undefined) state.cacheable = true;
  };

  return {
    wrap(store) {
      return {
        ...store,
        set(id, data, entities, ttl) {
          mark();
          return store.set(id, data, entities, ttl);
        },
        get(id) {
          const found = store.get(id);
          // A hit is a result stored as cacheable (an async store is left to its own resolution).
          if (found !== null && found !== undefined && !(found instanceof Promise)) mark();
          return found;
        },
        invalidate: (entities) => store.invalidate(entities),
      };
    },
    async run(handle) {
      const state = { cacheable: false };
      const value = await flight.run(state, handle);
      return { value, cacheable: state.cacheable };
    },
    get: (key) => answers.get(key),
    set: (key, answer) => answers.set(key, answer),
    get size() {
      return answers.size;
    },
  };
}
