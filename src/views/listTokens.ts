import type { NetworkConfig } from "../config/types.js";
import type { Address, Token } from "../domain/types.js";

/** The tokens of a network's token list (for its own chain id) as Token values. */
export function listTokens(config: NetworkConfig): Token[] {
  return config.tokenList.tokens
    .filter((entry) => entry.chainId === config.chainId)
    .map((entry) => ({
      address: entry.address.toLowerCase() as Address,
      name: entry.name,
      symbol: entry.symbol,
      decimals: entry.decimals,
    }));
}
