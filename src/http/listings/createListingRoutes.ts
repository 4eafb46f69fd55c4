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
import { NETWORK_PATH_SCHEMA } from "../api/restSchemas.js";
import type { BlockAnswerer } from "../createBlockAnswerer.js";
import type { DocumentedRoute, RouteDoc } from "../routeDoc.js";
import {
  CMC_ASSETS_SCHEMA,
  CMC_SUMMARY_SCHEMA,
  CMC_TICKER_SCHEMA,
  COINGECKO_PAIRS_SCHEMA,
  COINGECKO_TICKERS_SCHEMA,
} from "./listingSchemas.js";

/** The description of a market list: `about` it, the schema of its body. */
function listDoc(summary: string, about: string, schema: object): RouteDoc {
  return {
    operationId: `listing${summary.replace(/[^A-Za-z]/g, "")}`,
    tag: "Listings",
    summary,
    description:
      `${about} Base is the pool's token0 and target (quote) its token1; a pair is one pool, named ` +
      "base_target by contract addresses (base_target_pool where several pools hold the same tokens), " +
      "with pool_id the pool's address. Kept per indexed block.",
    ok: { description: "The answer in the aggregator's format.", schema },
    kept: true,
  };
}

/**
 * The listing endpoints' paths, descriptions and bodies.
 * @internal exported for tests, which make the bodies and name the paths.
 */
export const LISTING_ENDPOINTS: {
  path: string;
  doc: RouteDoc;
  build: (markets: ListedMarket[]) => unknown;
}[] = [
  {
    path: "/coingecko/:network/pairs",
    doc: listDoc(
      "CoinGecko: pairs",
      "CoinGecko's DEX /pairs: every indexed pool with a price as ticker_id, base, target, pool_id.",
      COINGECKO_PAIRS_SCHEMA,
    ),
    build: buildCoingeckoPairs,
  },
  {
    path: "/coingecko/:network/tickers",
    doc: listDoc(
      "CoinGecko: tickers",
      "CoinGecko's DEX /tickers: each pool's last traded price, base and target volumes, high and low " +
        "over the rolling 24 hours up to the indexed block's time (its Swap logs in (t - 24 h, t]), and " +
        "liquidity_in_usd (Pool.liquidityUSD).",
      COINGECKO_TICKERS_SCHEMA,
    ),
    build: buildCoingeckoTickers,
  },
  {
    path: "/cmc/:network/summary",
    doc: listDoc(
      "CoinMarketCap: summary",
      "CoinMarketCap's summary: each pool's last price, volumes, price change, highest and lowest price " +
        "over the rolling 24 hours up to the indexed block's time.",
      CMC_SUMMARY_SCHEMA,
    ),
    build: buildCmcSummary,
  },
  {
    path: "/cmc/:network/assets",
    doc: listDoc(
      "CoinMarketCap: assets",
      "CoinMarketCap's assets: every token of a listed pool, keyed by its contract address.",
      CMC_ASSETS_SCHEMA,
    ),
    build: buildCmcAssets,
  },
  {
    path: "/cmc/:network/ticker",
    doc: listDoc(
      "CoinMarketCap: ticker",
      "CoinMarketCap's ticker: each pool's last price and 24-hour volumes, keyed by its pair id.",
      CMC_TICKER_SCHEMA,
    ),
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
}): DocumentedRoute[] {
  const { reader, answer } = options;
  return LISTING_ENDPOINTS.map(({ path, doc, build }) => ({
    path,
    params: NETWORK_PATH_SCHEMA,
    doc,
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
