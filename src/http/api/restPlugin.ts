import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { GraphqlExecutor } from "../../graphql/createGraphqlExecutor.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import { createSwapHourCache } from "../../views/answers/createSwapHourCache.js";
import type { MarketReader } from "../../views/types.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { refuseOtherMethods } from "../routeConfig.js";
import { createQuoteRoute } from "./createQuoteRoute.js";
import { createSwapHourWarmer } from "./createSwapHourWarmer.js";
import { createSwaps24hRoute, STREAM_PAGE_SIZE } from "./createSwaps24hRoute.js";
import { createSwapsExportRoute } from "./createSwapsExportRoute.js";
import { createTradeVolume7dRoute } from "./createTradeVolume7dRoute.js";
import { REST_DOCS } from "./restDocs.js";
import { parseRestOperations } from "./restOperations.js";

/** Options of restPlugin. */
export interface RestOptions {
  /** Runs the fixed operations in-process against the schema the GraphQL endpoint serves. */
  executor: GraphqlExecutor;
  /** What /api/quote and /api/trade_volume_usd_7d are made from (src/views/answers). */
  reader: MarketReader;
  /** Where market answers are kept (absent: none is). */
  answers?: AnswerStore;
  /** Swaps per GraphQL page while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer shared within its block and second (bytes; 0: never). */
  sharedListMaxChars?: number;
  /** A directory where the rendered bytes of settled hours of /api/swaps_24h are kept (see createHttpServer). */
  swapsCacheDir?: string;
  /** With swapsCacheDir: how often settled hours are rendered in the background (ms; 0 or absent: never). */
  swapsWarmIntervalMs?: number;
  /** Where a list that fails after its first byte is reported. */
  logger?: Logger;
}

// The framework's gzip (one coding: one ETag per representation); a route may set its own level.
const compressOptions = (level: number) => ({
  encodings: ["gzip" as const],
  threshold: 1024,
  zlibOptions: { level },
});

/**
 * The REST facade (/api/*): fixed GraphQL operations behind the spec's JSON, one module per
 * endpoint, each run in-process through the executor (no HTTP hop), parsed and compiled once.
 * Query parameters are validated by the JSON Schemas the OpenAPI document publishes.
 */
export async function restPlugin(app: FastifyInstance, options: RestOptions): Promise<void> {
  const { executor, reader, answers } = options;
  const operations = parseRestOperations(executor);
  const hourCache =
    options.swapsCacheDir === undefined ? undefined : createSwapHourCache(options.swapsCacheDir);
  if (hourCache !== undefined) {
    // Closing the node server (the composition root's drain) or the app (tests) removes the files.
    app.server.once("close", () => hourCache.close());
    app.addHook("onClose", async () => hourCache.close());
    const interval = options.swapsWarmIntervalMs ?? 0;
    if (interval > 0) {
      const warmer = createSwapHourWarmer({
        executor,
        operations,
        cache: hourCache,
        pageSize: options.swapsPageSize ?? STREAM_PAGE_SIZE,
        intervalMs: interval,
        ...(options.logger === undefined ? {} : { logger: options.logger }),
      });
      app.server.once("close", () => warmer.stop());
      app.addHook("onClose", async () => warmer.stop());
    }
  }
  const answer = createBlockAnswerer({ reader, ...(answers === undefined ? {} : { answers }) });
  const routes = [
    createQuoteRoute({ reader, answer }),
    createSwaps24hRoute({
      executor,
      operations,
      ...(answers === undefined ? {} : { answers }),
      ...(hourCache === undefined ? {} : { hourCache }),
      ...(options.swapsPageSize === undefined ? {} : { pageSize: options.swapsPageSize }),
      ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.sharedListMaxChars === undefined ? {} : { sharedListMaxChars: options.sharedListMaxChars }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    }),
    createTradeVolume7dRoute({ reader, answer }),
    createSwapsExportRoute({
      executor,
      operations,
      ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    }),
  ];
  for (const route of routes) {
    const compress = route.ownCompression
      ? false
      : route.gzipLevel === undefined
        ? undefined
        : compressOptions(route.gzipLevel);
    app.get(
      route.path,
      {
        schema: { querystring: route.querySchema },
        ...(compress === undefined ? {} : { compress }),
        config: { ...(route.list === true ? LIST_BUDGET_ROUTE : {}), openapi: REST_DOCS[route.path] },
      },
      route.handler,
    );
    refuseOtherMethods(app, route.path);
  }
}
