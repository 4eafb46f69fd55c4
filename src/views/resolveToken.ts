import type { Address, NetworkName, Token } from "../domain/types.js";
import { BadRequestError, UnknownSymbolError } from "../errors.js";
import { nativeToken } from "./nativeToken.js";
import type { MarketDiscovery, MarketState } from "./types.js";

/** A token as the caller wrote it: a contract address or a symbol. */
export type TokenInput = { kind: "address"; address: Address } | { kind: "symbol"; symbol: string };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
// "0x" and hex only, but not 40 digits: a mistyped address. ("0xBTC" is a real symbol.)
const HEX_ONLY = /^0[xX][0-9a-fA-F]*$/;
// Token-list symbols: printable, no whitespace or control characters, short.
const SYMBOL = /^[^\s\p{C}"\\]{1,32}$/u;

function quote(value: string): string {
  return JSON.stringify(value.length > 50 ? `${value.slice(0, 50)}...` : value);
}

/** Classifies a token parameter without I/O; throws BadRequestError (400) when it is neither form. */
export function parseTokenInput(value: string, param: string): TokenInput {
  if (value === "") {
    throw new BadRequestError(`${param} is required: give a token symbol or a contract address.`);
  }
  if (ADDRESS.test(value)) return { kind: "address", address: value.toLowerCase() as Address };
  if (HEX_ONLY.test(value)) {
    throw new BadRequestError(
      `${param} ${quote(value)} is not a valid contract address: expected 0x followed by 40 hex digits.`,
    );
  }
  if (!SYMBOL.test(value)) {
    throw new BadRequestError(`${param} ${quote(value)} is neither a token symbol nor a contract address.`);
  }
  return { kind: "symbol", symbol: value };
}

/** The Token a symbol names, or undefined when the network's token list does not know it. */
export function findSymbol(reader: MarketState, network: NetworkName, symbol: string): Token | undefined {
  // The native coin's symbol and aliases come from config, so they work even before the token list is loaded.
  const config = reader.getConfig(network);
  const lower = symbol.toLowerCase();
  const { native } = config;
  if (
    native.symbol.toLowerCase() === lower ||
    native.aliases.some((alias) => alias.toLowerCase() === lower)
  ) {
    return nativeToken(config);
  }
  return reader.findTokenBySymbol(network, symbol);
}

/**
 * Resolves a symbol (case-insensitive, native coin included) or an ERC-20 address (metadata
 * read from the chain once when unknown) to its Token; throws BadRequestError (400) for an
 * unknown symbol, a malformed value or an address that is not an ERC-20 contract.
 */
export async function resolveToken(
  reader: MarketState & MarketDiscovery,
  network: NetworkName,
  input: TokenInput,
  param: string,
): Promise<Token> {
  if (input.kind === "address") {
    return (
      reader.getToken(network, input.address) ?? (await reader.resolveTokenAddress(network, input.address))
    );
  }
  const token = findSymbol(reader, network, input.symbol);
  if (token === undefined) {
    throw new UnknownSymbolError({ param, symbol: input.symbol, network });
  }
  return token;
}
