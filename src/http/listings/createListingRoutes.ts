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
import type { ListingRoute } from "./listingRoute.js";

/**
 * The listing endpoints' paths, operations and bodies.
 * @internal exported for tests, which make the bodies and name the paths.
 */
export const LISTING_ENDPOINTS: {
  path: string;
  operationId: string;
  build: (markets: ListedMarket[]) => unknown;
}[] = [
  {
    path: "/coingecko/:network/pairs",
    operationId: "listingCoinGeckopairs",
    build: buildCoingeckoPairs,
  },
  {
    path: "/coingecko/:network/tickers",
    operationId: "listingCoinGeckotickers",
    build: buildCoingeckoTickers,
  },
  {
    path: "/cmc/:network/summary",
    operationId: "listingCoinMarketCapsummary",
    build: buildCmcSummary,
  },
  {
    path: "/cmc/:network/assets",
    operationId: "listingCoinMarketCapassets",
    build: buildCmcAssets,
  },
  {
    path: "/cmc/:network/ticker",
    operationId: "listingCoinMarketCapticker",
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
  return LISTING_ENDPOINTS.map(({ path, operationId, build }) => ({
    path,
    operationId,
    kept: true,
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
