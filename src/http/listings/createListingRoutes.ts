import type { FastifyReply, FastifyRequest } from "fastify";
import type { NetworkName } from "../../domain/types.js";
import type { ListedMarket } from "../../views/answers/buildListingBodies.js";
import {
  buildCmcAssets,
  buildCmcSummary,
  buildCmcTicker,
  buildCoingeckoPairs,
  buildCoingeckoTickers,
} from "../../views/answers/buildListingBodies.js";
import { readListedMarkets } from "../../views/answers/readListedMarkets.js";
import type { MarketReader } from "../../views/types.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import {
  CMC_ASSETS_SCHEMA,
  CMC_SUMMARY_SCHEMA,
  CMC_TICKER_SCHEMA,
  COINGECKO_PAIRS_SCHEMA,
  COINGECKO_TICKERS_SCHEMA,
} from "./listingSchemas.js";

/** One listing endpoint: its path (with :network), what it answers, and the schema of its body. */
export interface ListingRoute {
  path: string;
  summary: string;
  description: string;
  bodySchema: object;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

/** The listing endpoints' paths, bodies and descriptions. */
export const LISTING_ENDPOINTS: {
  path: string;
  summary: string;
  description: string;
  bodySchema: object;
  build: (markets: ListedMarket[]) => unknown;
}[] = [
  {
    path: "/coingecko/:network/pairs",
    summary: "CoinGecko: pairs",
    description:
      "CoinGecko's DEX /pairs: every indexed pool with a price as ticker_id, base, target, pool_id.",
    bodySchema: COINGECKO_PAIRS_SCHEMA,
    build: buildCoingeckoPairs,
  },
  {
    path: "/coingecko/:network/tickers",
    summary: "CoinGecko: tickers",
    description:
      "CoinGecko's DEX /tickers: each pool's last traded price, base and target volumes, high and low " +
      "over the rolling 24 hours up to the indexed block's time (its Swap logs in (t - 24 h, t]), and " +
      "liquidity_in_usd (Pool.liquidityUSD).",
    bodySchema: COINGECKO_TICKERS_SCHEMA,
    build: buildCoingeckoTickers,
  },
  {
    path: "/cmc/:network/summary",
    summary: "CoinMarketCap: summary",
    description:
      "CoinMarketCap's summary: each pool's last price, volumes, price change, highest and lowest price " +
      "over the rolling 24 hours up to the indexed block's time.",
    bodySchema: CMC_SUMMARY_SCHEMA,
    build: buildCmcSummary,
  },
  {
    path: "/cmc/:network/assets",
    summary: "CoinMarketCap: assets",
    description: "CoinMarketCap's assets: every token of a listed pool, keyed by its contract address.",
    bodySchema: CMC_ASSETS_SCHEMA,
    build: buildCmcAssets,
  },
  {
    path: "/cmc/:network/ticker",
    summary: "CoinMarketCap: ticker",
    description: "CoinMarketCap's ticker: each pool's last price and 24-hour volumes, keyed by its pair id.",
    bodySchema: CMC_TICKER_SCHEMA,
    build: buildCmcTicker,
  },
];

/**
 * The listing endpoints (CoinGecko's and CoinMarketCap's DEX formats) over the listed markets,
 * each answer kept per network and indexed block (the rolling 24 hours end at the block's time).
 */
export function createListingRoutes(options: {
  reader: MarketReader;
  answer: BlockAnswerer;
}): ListingRoute[] {
  const { reader, answer } = options;
  return LISTING_ENDPOINTS.map(({ path, summary, description, bodySchema, build }) => ({
    path,
    summary,
    description,
    bodySchema,
    handler: async (request, reply) => {
      const { network } = request.params as { network: NetworkName };
      const nowMs = Date.now();
      return answer.answer(request, reply, {
        network,
        key: `listing\n${path}\n${network}`,
        nowMs,
        render: async () => {
          const { markets, networkStatus } = await readListedMarkets(reader, network, nowMs);
          return { value: build(markets), networkStatus };
        },
      });
    },
  }));
}
