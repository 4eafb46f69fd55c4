import type { GraphqlServer, GraphqlServerOptions } from "./createGraphqlServer.js";
import { createMarketStateKey } from "./createMarketStateKey.js";

/**
 * A GraphQL server built when it is first asked for: the HTTP edge reads `marketState` on every
 * /graphql request and awaits `load()` when it has no kept answer.
 */
export interface LazyGraphqlServer {
  marketState: () => string;
  /** The server, built once: every caller, concurrent ones included, gets the same one. */
  load: () => Promise<GraphqlServer>;
}

/**
 * createGraphqlServer on first use. Its module (yoga and its plugins, graphql-js, the schema's
 * build, the persisted operations' validation) is a chunk of its own in the build, so the start
 * neither compiles nor runs it before listening (docs/benchmarks.md, Start). A failed build is
 * not kept: the next request tries again.
 */
export function createLazyGraphqlServer(options: GraphqlServerOptions): LazyGraphqlServer {
  let building: Promise<GraphqlServer> | undefined;
  return {
    marketState: createMarketStateKey(options.reader),
    load() {
      building ??= import("./createGraphqlServer.js")
        .then(({ createGraphqlServer }) => createGraphqlServer(options))
        .catch((error: unknown) => {
          building = undefined;
          throw error;
        });
      return building;
    },
  };
}
