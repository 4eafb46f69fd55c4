import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { SettledSwapHours } from "../../views/answers/createSettledSwapHours.js";
import type { MarketReader } from "../../views/types.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { documentedRoute } from "../openapi/documentedRoute.js";
import { refuseOtherMethods } from "../routeConfig.js";
import { createQuoteRoute } from "./createQuoteRoute.js";
import { createSwaps24hRoute } from "./createSwaps24hRoute.js";
import { createSwapsExportRoute } from "./createSwapsExportRoute.js";
import { createTradeVolume7dRoute } from "./createTradeVolume7dRoute.js";

/** Options of restPlugin. */
export interface RestOptions {
  /** What every /api answer is made from (src/views/answers). */
  reader: MarketReader;
  /** Where market answers are kept (absent: none is). */
  answers?: AnswerStore;
  /** Swaps per page read while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer shared within its block and second (bytes; 0: never). */
  sharedListMaxChars?: number;
  /** The settled hours of /api/swaps_24h the read model keeps rendered (absent: none are). */
  swapHours?: SettledSwapHours;
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
 * The REST facade (/api/*): the spec's JSON, one module per endpoint, each made in the read model
 * (src/views/answers) and parsed, asked and streamed here. Query parameters are validated by the
 * JSON Schemas of their operation in schema/openapi.yaml.
 */
export async function restPlugin(app: FastifyInstance, options: RestOptions): Promise<void> {
  const { reader, answers, logger } = options;
  const answer = createBlockAnswerer({ reader, ...(answers === undefined ? {} : { answers }) });
  const routes = [
    createQuoteRoute({ reader, answer }),
    createSwaps24hRoute({
      reader,
      answers,
      hours: options.swapHours,
      pageSize: options.swapsPageSize,
      stallTimeoutMs: options.stallTimeoutMs,
      sharedListMaxChars: options.sharedListMaxChars,
      logger,
    }),
    createTradeVolume7dRoute({ reader, answer }),
    createSwapsExportRoute({ reader, stallTimeoutMs: options.stallTimeoutMs, logger }),
  ];
  for (const route of routes) {
    const compress = route.ownCompression
      ? false
      : route.gzipLevel === undefined
        ? undefined
        : compressOptions(route.gzipLevel);
    const { schema, config } = documentedRoute(route.operationId);
    app.get(
      route.path,
      {
        schema,
        ...(compress === undefined ? {} : { compress }),
        config: { ...(route.list === true ? LIST_BUDGET_ROUTE : {}), ...config },
      },
      route.handler,
    );
    refuseOtherMethods(app, route.path);
  }
}
