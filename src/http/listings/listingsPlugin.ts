import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { MarketReader } from "../../views/types.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { documentedRoute } from "../openapi/documentedRoute.js";
import { refuseOtherMethods } from "../routeConfig.js";
import { createListingRoutes } from "./createListingRoutes.js";
import { createOrderBookRoutes } from "./createOrderBookRoutes.js";
import { createPoolTradeRoutes } from "./createPoolTradeRoutes.js";

/** Options of listingsPlugin. */
export interface ListingsOptions {
  /** What the markets, pair ids and trades are read from (src/views/answers makes them). */
  reader: MarketReader;
  /** Where answers are kept (absent: none is). */
  answers?: AnswerStore;
  /** Where a trade list that fails after its first byte is reported. */
  logger?: Logger;
}

/**
 * The endpoints aggregators read from a DEX, per network: CoinGecko's (/coingecko/:network/pairs,
 * /tickers, /historical_trades) and CoinMarketCap's (/cmc/:network/summary, /assets, /ticker,
 * /trades/:market_pair, and both formats' /orderbook from the pools' curves), read from the views
 * (src/views/answers), rate limited like /api: the market lists kept per indexed block, a pool's
 * trades streamed at one block.
 */
export async function listingsPlugin(app: FastifyInstance, options: ListingsOptions): Promise<void> {
  const { reader, answers, logger } = options;
  const answer = createBlockAnswerer({ reader, ...(answers === undefined ? {} : { answers }) });
  const routes = [
    ...createListingRoutes({ reader, answer }),
    ...createOrderBookRoutes({ reader, answer }),
    ...createPoolTradeRoutes({ reader, ...(logger === undefined ? {} : { logger }) }),
  ];
  for (const { path, operationId, kept, handler } of routes) {
    const { schema, config } = documentedRoute(operationId);
    // Kept answers carry their own gzip copy: the framework's compressor stays out. A pool's
    // trades (streamed, not kept) are a whole list: its full history with CoinGecko's limit=0.
    app.get(
      path,
      {
        schema,
        ...(kept ? { compress: false } : {}),
        config: { ...config, ...(kept ? {} : LIST_BUDGET_ROUTE) },
      },
      handler,
    );
    refuseOtherMethods(app, path);
  }
}
