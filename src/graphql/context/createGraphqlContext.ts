import type DataLoader from "dataloader";
import type { Logger } from "pino";
import type { Address, NetworkName, Token, TokenRef } from "../../domain/types.js";
import type { PoolPrices } from "../../views/getPoolPrices.js";
import type { MarketReader } from "../../views/types.js";
import {
  createPoolDayStatsLoader,
  createTokenDayStatsLoader,
  type PoolDayStats,
  type TokenDayStats,
} from "./createDayStatsLoaders.js";
import { createPoolPricesLoader, type PoolPriceKey } from "./createPoolPricesLoader.js";
import { createTokenLoader } from "./createTokenLoader.js";

/** A token with the network it was loaded on. */
type NetworkToken = Token & { network: NetworkName };

/** What every resolver gets: the reader, per-request loaders and the request's clock. */
export interface GraphqlContext {
  reader: MarketReader;
  /** The token metadata loader of a network, created on first use within this request. */
  tokens: (network: NetworkName) => DataLoader<TokenRef, Token>;
  /**
   * Loads many tokens in one batch (through `tokens`) so that `peekToken` then answers them
   * synchronously: a list resolver primes its page, and thousands of fields resolve without
   * a promise each (graphql-js is several times faster on synchronous values).
   */
  preloadTokens: (network: NetworkName, refs: Iterable<TokenRef>) => Promise<void>;
  /** The 24-hour token stats loader of a network (each token read once per request). */
  tokenDayStats: (network: NetworkName) => DataLoader<Address, TokenDayStats>;
  /** The 24-hour pool stats loader of a network (each pool read once per request). */
  poolDayStats: (network: NetworkName) => DataLoader<Address, PoolDayStats>;
  /** The pool prices loader of a network (every pool's asked prices of a tick in one store read). */
  poolPrices: (network: NetworkName) => DataLoader<PoolPriceKey, PoolPrices>;
  /**
   * A token this request already loaded (with its network, as Token fields that value it need),
   * or undefined. The same object every time: a page's thousands of amounts share it.
   */
  peekToken: (network: NetworkName, ref: TokenRef) => NetworkToken | undefined;
  /** The error a preloadTokens of this request got for a token, or undefined. */
  peekTokenError: (network: NetworkName, ref: TokenRef) => Error | undefined;
  /** Unix seconds when the request started: one clock for the whole request. */
  now: number;
  /** The same instant in unix milliseconds (data age and freshness are judged against it). */
  nowMs: number;
}

/** Creates the context of one GraphQL request (loaders must never outlive a request). */
export function createGraphqlContext(
  reader: MarketReader,
  options: { logger?: Logger; nowMs?: number } = {},
): GraphqlContext {
  const nowMs = options.nowMs ?? Date.now();
  // Loaded tokens by network, then by reference (no key string made per lookup).
  const loaded = perNetwork(() => new Map<TokenRef, NetworkToken>());
  const failed = perNetwork(() => new Map<TokenRef, Error>());
  const tokens = perNetwork((network) => createTokenLoader(reader, network, options.logger));
  const now = Math.floor(nowMs / 1000);
  const tokenDayStats = perNetwork((network) => createTokenDayStatsLoader(reader, network, now));
  const poolDayStats = perNetwork((network) => createPoolDayStatsLoader(reader, network, now));
  const poolPrices = perNetwork((network) => createPoolPricesLoader(reader, network, now));

  return {
    reader,
    tokenDayStats,
    poolDayStats,
    poolPrices,
    now,
    nowMs,
    tokens,
    async preloadTokens(network, refs) {
      const known = loaded(network);
      const missing = new Set<TokenRef>();
      for (const ref of refs) if (!known.has(ref)) missing.add(ref);
      if (missing.size === 0) return;
      const asked = [...missing];
      const results = await tokens(network).loadMany(asked);
      // A failed load is kept as its error: its fields fail with it, as a load of it would.
      results.forEach((token, i) => {
        if (token instanceof Error) failed(network).set(asked[i]!, token);
        else known.set(asked[i]!, { ...token, network });
      });
    },
    peekToken: (network, ref) => loaded(network).get(ref),
    peekTokenError: (network, ref) => failed(network).get(ref),
  };
}

/**
 * A value per network, created on first use (a request's loaders). The map too: most requests
 * (a kept answer's status read) use none of them.
 */
function perNetwork<T>(create: (network: NetworkName) => T): (network: NetworkName) => T {
  let made: Map<NetworkName, T> | undefined;
  return (network) => {
    made ??= new Map();
    let value = made.get(network);
    if (value === undefined) {
      value = create(network);
      made.set(network, value);
    }
    return value;
  };
}
