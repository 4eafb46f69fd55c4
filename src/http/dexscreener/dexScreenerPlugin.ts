import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { MarketReader } from "../../views/types.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { documentedRoute } from "../openapi/documentedRoute.js";
import { refuseOtherMethods } from "../routeConfig.js";
import {
  assetHandler,
  type DexScreenerDeps,
  eventsHandler,
  latestBlockHandler,
  pairHandler,
} from "./createDexScreenerRoutes.js";

/** Options of dexScreenerPlugin. */
export interface DexScreenerOptions {
  reader: MarketReader;
  /** Where answers are kept per indexed block (absent: none is). */
  answers?: AnswerStore;
  /** How long a streamed events answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  logger?: Logger;
}

/**
 * The DEX Screener adapter (the published "DEX Screener Adapter Specs"), per network under
 * /dexscreener/{network}/: latest-block, asset, pair and events. It answers from the views the
 * API reads (the indexed block, the pool graph, the stored pool events): its format is the
 * aggregator's, not one GraphQL serves. Rate limited and kept per indexed block like /api/*.
 */
export async function dexScreenerPlugin(app: FastifyInstance, options: DexScreenerOptions): Promise<void> {
  const deps: DexScreenerDeps = {
    reader: options.reader,
    answer: createBlockAnswerer({
      reader: options.reader,
      ...(options.answers === undefined ? {} : { answers: options.answers }),
    }),
    answers: options.answers,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    logger: options.logger,
  };
  const routes = [
    {
      path: "/dexscreener/:network/latest-block",
      operationId: "dexScreenerLatestBlock",
      handler: latestBlockHandler(deps),
    },
    { path: "/dexscreener/:network/asset", operationId: "dexScreenerAsset", handler: assetHandler(deps) },
    { path: "/dexscreener/:network/pair", operationId: "dexScreenerPair", handler: pairHandler(deps) },
    // A block range of events is a list, streamed: charged to the client's list budget.
    {
      path: "/dexscreener/:network/events",
      operationId: "dexScreenerEvents",
      handler: eventsHandler(deps),
      list: true,
    },
  ];
  for (const route of routes) {
    const { schema, config } = documentedRoute(route.operationId);
    // Kept answers carry their own gzip; streamed events are gzipped by the framework.
    app.get(
      route.path,
      { schema, config: { ...config, ...("list" in route ? LIST_BUDGET_ROUTE : {}) } },
      route.handler,
    );
    refuseOtherMethods(app, route.path);
  }
}
