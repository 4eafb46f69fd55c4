import type { NetworkConfig } from "../config/types.js";
import { type Address, NATIVE, type Token } from "../domain/types.js";
import { createPoolIndex } from "../pricing/createPoolIndex.js";
import type { PoolIndex } from "../pricing/types.js";
import type { ReportedStatus } from "./buildNetworkStatus.js";
import { listTokens } from "./listTokens.js";

/**
 * What the API reads of one network from memory: bounded by the pools and tokens, never by the
 * number of trades (those are read from the store a page at a time).
 */
export interface NetworkView {
  readonly config: NetworkConfig;
  readonly tokens: Map<Address, Token>;
  readonly bySymbol: Map<string, Token>;
  readonly native: Token;
  index: PoolIndex;
  /** What the indexer (or follower) reported; lag and degraded are derived when read. */
  status: ReportedStatus;
  poolsBlock: bigint | undefined;
  /** Adds (or replaces) tokens; the native coin is never one of them. */
  addTokens(tokens: readonly Token[]): void;
}

/** Creates a network's view as of no indexed block: the token list's tokens, no pools, not ready. */
export function createNetworkView(config: NetworkConfig): NetworkView {
  const native: Token = {
    address: NATIVE,
    name: config.native.name,
    symbol: config.native.symbol,
    decimals: config.native.decimals,
  };
  const view: NetworkView = {
    config,
    tokens: new Map(),
    bySymbol: new Map(),
    native,
    index: createPoolIndex(),
    status: {
      network: config.name,
      ready: false,
      indexedBlock: undefined,
      headBlock: undefined,
      headCheckedAt: undefined,
      syncedAt: undefined,
      halted: false,
      error: undefined,
    },
    poolsBlock: undefined,
    addTokens(tokens) {
      for (const token of tokens) {
        if (token.address === NATIVE) continue;
        view.tokens.set(token.address, token);
      }
      // Symbols resolve through the token list only: arbitrary on-chain symbols are not trusted.
      view.bySymbol.clear();
      for (const entry of config.tokenList.tokens) {
        const token = view.tokens.get(entry.address.toLowerCase() as Address);
        if (token !== undefined && entry.chainId === config.chainId) {
          view.bySymbol.set(entry.symbol.toLowerCase(), token);
        }
      }
      for (const symbol of [config.native.symbol, ...config.native.aliases]) {
        view.bySymbol.set(symbol.toLowerCase(), native);
      }
    },
  };
  view.addTokens(listTokens(config));
  return view;
}
