import DataLoader from "dataloader";
import type { Logger } from "pino";
import { NATIVE, type NetworkName, type Token, type TokenRef } from "../../domain/types.js";
import { nativeToken } from "../../views/nativeToken.js";
import type { MarketDiscovery, MarketState } from "../../views/types.js";

/**
 * Creates a per-request loader of token metadata for one network: every token a query touches
 * in one tick is read in one batch, and each token once.
 */
export function createTokenLoader(
  reader: MarketState & MarketDiscovery,
  network: NetworkName,
  logger?: Logger,
): DataLoader<TokenRef, Token> {
  return new DataLoader<TokenRef, Token>(async (refs) => {
    logger?.debug({ network, size: refs.length }, "token metadata batch");
    return Promise.all(
      refs.map(async (ref): Promise<Token | Error> => {
        if (ref === NATIVE) return nativeToken(reader.getConfig(network));
        const known = reader.getToken(network, ref);
        if (known !== undefined) return known;
        // A traded token is normally known from indexing; reading it from the chain is the rare fallback.
        return reader
          .resolveTokenAddress(network, ref)
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      }),
    );
  });
}
