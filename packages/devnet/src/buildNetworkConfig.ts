import type { DevnetMarket, DevnetNetworkConfig, DevnetToken, DevnetTokenListEntry } from "./devnetTypes.js";
import type { DevnetPreset } from "./presets/devnetPresets.js";

/** Indexer settings of the demo networks. */
export interface DevnetIndexerSettings {
  windowDays: number;
  /** Unix seconds written into the token list's timestamp. */
  listTimestamp: number;
}

/** Builds the network config the indexer reads for a deployed devnet chain (unlisted tokens left out of the list). */
export function buildNetworkConfig(
  market: DevnetMarket,
  preset: DevnetPreset,
  rpcUrl: string,
  settings: DevnetIndexerSettings,
): DevnetNetworkConfig {
  const bySymbol = (symbol: string): DevnetToken => {
    const token = market.tokens.get(symbol);
    if (token === undefined) throw new Error(`devnet preset ${preset.network}: unknown token ${symbol}`);
    return token;
  };
  const stable = new Set(preset.stablecoins);
  const tokens: DevnetTokenListEntry[] = [...market.tokens.values()]
    .filter((t) => t.listed)
    .map((t) => ({
      chainId: market.chainId,
      address: t.address,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      ...(stable.has(t.symbol) ? { tags: ["stablecoin"] } : {}),
    }));
  return {
    name: market.network,
    chainId: market.chainId,
    rpcUrls: [rpcUrl],
    native: {
      name: preset.native.name,
      symbol: preset.native.symbol,
      aliases: [...preset.native.aliases],
      decimals: 18,
      wrapped: market.wrapped.address,
    },
    dexes: market.dexes.map((d) => ({
      name: d.name,
      kind: "uniswap-v2" as const,
      factory: d.factory,
      router: d.router,
      feeBps: d.feeBps,
    })),
    tokenList: {
      name: `swapgraph devnet ${market.network}`,
      timestamp: new Date(settings.listTimestamp * 1000).toISOString(),
      version: { major: 1, minor: 0, patch: 0 },
      tokens,
    },
    stablecoins: preset.stablecoins.map((s) => bySymbol(s).address),
    baseTokens: preset.baseTokens.map((s) => bySymbol(s).address),
    minLiquidityUsd: 10_000n * 10n ** 18n,
    windowDays: settings.windowDays,
    finalityDepth: 32,
    pollIntervalMs: 500,
    maxLogRange: 2000,
    maxStalenessSeconds: 600,
    rpc: {
      timeoutMs: 10_000,
      requestsPerSecond: 0,
      costModel: "computeUnits" as const,
      maxLogAddresses: 4_000,
      retryDelayMs: 250,
      cooldownMs: 5_000,
    },
  };
}
