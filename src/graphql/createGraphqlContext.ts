import type DataLoader from "dataloader";
import type { Logger } from "pino";
import type { MarketReader } from "../domain/market.js";
import type { NetworkName, Token, TokenRef } from "../domain/types.js";
import { createTokenLoader } from "./createTokenLoader.js";

/** What every resolver gets: the reader, per-request loaders and the request's clock. */
export interface GraphqlContext {
  reader: MarketReader;
  /** The token metadata loader of a network, created on first use within this request. */
  tokens: (network: NetworkName) => DataLoader<TokenRef, Token>;
  /** Unix seconds when the request started: one clock for the whole request. */
  now: number;
}

/** Creates the context of one GraphQL request (loaders must never outlive a request). */
export function createGraphqlContext(
  reader: MarketReader,
  options: { logger?: Logger; now?: number } = {},
): GraphqlContext {
  const loaders = new Map<NetworkName, DataLoader<TokenRef, Token>>();
  return {
    reader,
    now: options.now ?? Math.floor(Date.now() / 1000),
    tokens(network) {
      let loader = loaders.get(network);
      if (loader === undefined) {
        loader = createTokenLoader(reader, network, options.logger);
        loaders.set(network, loader);
      }
      return loader;
    },
  };
}
