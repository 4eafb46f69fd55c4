import type { NetworkConfig } from "../config/types.js";
import { NATIVE, type Token } from "../domain/types.js";

/** The native coin of a network as a Token (address ""), as the public API shows it. */
export function nativeToken(config: NetworkConfig): Token {
  return {
    address: NATIVE,
    name: config.native.name,
    symbol: config.native.symbol,
    decimals: config.native.decimals,
  };
}
