import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import type { MarketReader } from "../../views/types.js";
import { createBlockAnswerer } from "../createBlockAnswerer.js";
import { LIST_BUDGET_ROUTE } from "../createListBudget.js";
import { refuseOtherMethods } from "../routeConfig.js";
import { createListingRoutes } from "./createListingRoutes.js";
import { createOrderBookRoutes } from "./createOrderBookRoutes.js";
import { createPoolTradeRoutes } from "./createPoolTradeRoutes.js";
import { LISTING_PARAMS_SCHEMA } from "./listingSchemas.js";

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
  const { reader, answers } = options;
  const answer = createBlockAnswerer({ reader, ...(answers === undefined ? {} : { answers }) });
  const routes = createListingRoutes({ reader, answer });
  for (const route of routes) {
    // Kept answers carry their own gzip copy: the framework's compressor stays out.
    app.get(route.path, { schema: { params: LISTING_PARAMS_SCHEMA }, compress: false }, route.handler);
    refuseOtherMethods(app, route.path);
  }
  const bookRoutes = createOrderBookRoutes({
    reader,
    answer,
    paramsSchema: LISTING_PARAMS_SCHEMA,
  });
  for (const route of bookRoutes) {
    const schema = { params: route.paramsSchema, querystring: route.querySchema };
    app.get(route.path, { schema, compress: false }, route.handler);
    refuseOtherMethods(app, route.path);
  }
  const tradeRoutes = createPoolTradeRoutes({
    reader,
    paramsSchema: LISTING_PARAMS_SCHEMA,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  for (const route of tradeRoutes) {
    const schema = {
      params: route.paramsSchema,
      ...(route.querySchema === undefined ? {} : { querystring: route.querySchema }),
    };
    // A pool's trades are a whole list (its full history with CoinGecko's limit=0).
    app.get(route.path, { schema, config: LIST_BUDGET_ROUTE }, route.handler);
    refuseOtherMethods(app, route.path);
  }
}
