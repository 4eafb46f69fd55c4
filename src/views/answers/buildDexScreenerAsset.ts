import { formatDecimal } from "../../domain/formatDecimal.js";
import type { Address, Token } from "../../domain/types.js";
import { checksummed } from "./createPoolEventRenderer.js";

/** DEX Screener's asset body: the token's checksummed id, name, symbol and (when read) its total supply in whole tokens. */
export function buildDexScreenerAsset(
  id: Address,
  token: Pick<Token, "name" | "symbol" | "decimals">,
  supply: bigint | undefined,
) {
  return {
    asset: {
      id: checksummed(id),
      name: token.name,
      symbol: token.symbol,
      ...(supply === undefined ? {} : { totalSupply: formatDecimal(supply, token.decimals) }),
    },
  };
}
