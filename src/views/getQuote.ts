import type { NetworkConfig } from "../config/types.js";
import { formatDecimal } from "../domain/formatDecimal.js";
import { type Address, NATIVE, type NetworkName, type Token } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { createRouteCache } from "../pricing/createRouteCache.js";
import type { PoolState } from "../pricing/types.js";
import { assertNetworkConfigured, assertNetworkReady } from "./assertNetworkReady.js";
import { parseTokenInput, resolveToken } from "./resolveToken.js";
import type { MarketDiscovery, MarketState } from "./types.js";

/** Arguments of the quote query. */
export interface QuoteArgs {
  network: NetworkName;
  sellToken: string;
  buyToken: string;
  sellAmount?: bigint | null | undefined;
}

/** The Quote object the GraphQL type resolves from. */
export interface QuoteResult {
  kind: "quote";
  network: NetworkName;
  sellToken: Token;
  buyToken: Token;
  sellAmount: bigint;
  buyAmount: bigint;
  price: string;
  route: { pools: PoolState[]; path: Address[] };
  priceImpact: string;
  blockNumber: bigint | undefined;
}

/** No route of indexed pools connects the two tokens: an expected outcome, not a failure. */
export interface NoRoute {
  kind: "noRoute";
  network: NetworkName;
  sellToken: Token;
  buyToken: Token;
}

const MAX_UINT256 = 2n ** 256n - 1n;
const baseTokenSets = new WeakMap<NetworkConfig, ReadonlySet<Address>>();
// Routes only change when pool reserves do: popular pairs are computed once per block.
const routes = createRouteCache();

// Routing intermediates: the configured base tokens, always with the wrapped native coin.
function baseTokensOf(config: NetworkConfig): ReadonlySet<Address> {
  let set = baseTokenSets.get(config);
  if (set === undefined) {
    set = new Set([config.native.wrapped, ...config.baseTokens].map((a) => a.toLowerCase() as Address));
    baseTokenSets.set(config, set);
  }
  return set;
}

// The native coin trades as its wrapped ERC-20, 1:1.
function routingAddress(token: Token, config: NetworkConfig): Address {
  return token.address === NATIVE ? (config.native.wrapped.toLowerCase() as Address) : token.address;
}

/**
 * Quotes selling `sellAmount` (default: one whole token) of one token for another over the
 * best route of up to 3 hops, found in one search of the pool graph; no route is a value
 * (`kind: "noRoute"`). Throws 400 for bad tokens, 503 when the network is not ready.
 */
export async function getQuote(
  reader: MarketState & MarketDiscovery,
  args: QuoteArgs,
): Promise<QuoteResult | NoRoute> {
  const { network } = args;
  assertNetworkConfigured(reader, network);
  const sellInput = parseTokenInput(args.sellToken, "sellToken");
  const buyInput = parseTokenInput(args.buyToken, "buyToken");
  if (args.sellAmount !== undefined && args.sellAmount !== null) {
    if (args.sellAmount <= 0n || args.sellAmount > MAX_UINT256) {
      throw new BadRequestError(
        "sellAmount must be a positive integer in the sell token's smallest unit (at most 2^256 - 1).",
      );
    }
  }
  assertNetworkReady(reader, network);

  const [sellToken, buyToken] = await Promise.all([
    resolveToken(reader, network, sellInput, "sellToken"),
    resolveToken(reader, network, buyInput, "buyToken"),
  ]);
  const config = reader.getConfig(network);
  const sell = routingAddress(sellToken, config);
  const buy = routingAddress(buyToken, config);
  // Native and wrapped coin are the same asset to the pools: no route can price one in the other.
  if (sell === buy) {
    throw new BadRequestError(
      "sellToken and buyToken are the same token (a native coin and its wrapped token count as one); choose two different tokens.",
    );
  }

  const unitAmount = 10n ** BigInt(sellToken.decimals);
  const amountIn = args.sellAmount ?? unitAmount;
  const found = routes.findQuoteRoutes({
    index: reader.getPoolIndex(network),
    sell,
    buy,
    amountIn,
    unitAmount,
    baseTokens: baseTokensOf(config),
    maxHops: 3,
  });
  if (found.kind === "noRoute") return { kind: "noRoute", network, sellToken, buyToken };
  const quoted = {
    kind: "quote" as const,
    network,
    sellToken,
    buyToken,
    sellAmount: amountIn,
    price: formatDecimal(found.unitRoute?.amountOut ?? 0n, buyToken.decimals),
    blockNumber: reader.poolsBlock(network),
  };
  if (found.kind === "route") {
    const { route } = found;
    return {
      ...quoted,
      buyAmount: route.amountOut,
      route: { pools: route.hops.map((hop) => hop.pool), path: route.path },
      priceImpact: formatDecimal(route.priceImpactPpm, 6),
    };
  }
  // Pools connect the tokens yet give nothing for this amount (the output rounds down to 0):
  // that is a price of "0", not a missing route; the route is the one a reserve-sized amount takes.
  const { probe } = found;
  return {
    ...quoted,
    buyAmount: 0n,
    route: { pools: probe.hops.map((hop) => hop.pool), path: probe.path },
    priceImpact: "1",
  };
}
