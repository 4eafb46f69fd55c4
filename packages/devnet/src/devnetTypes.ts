import type { Address } from "viem";

/**
 * The networks the devnet builds, by the product's names for them (the devnet imports nothing
 * from the product: these are the names of src/domain/types.ts's NETWORKS).
 */
export const DEVNET_NETWORKS = ["bsc", "eth", "polygon"] as const;
export type DevnetNetworkName = (typeof DEVNET_NETWORKS)[number];

/** A deployed devnet token with its preset USD price (today's reference; trades are sized with it). */
export interface DevnetToken {
  symbol: string;
  name: string;
  decimals: number;
  address: Address;
  /** USD price scaled by 10^18. */
  priceE18: bigint;
  /** In the network's token list (the wrapped native is; the two unlisted tokens are not). */
  listed: boolean;
  isWrappedNative: boolean;
}

/** One of the two Uniswap-V2 deployments of a devnet chain. */
export interface DevnetDex {
  name: string;
  factory: Address;
  router: Address;
  /** The npm artifacts' pair charges 0.30% whatever the DEX's real-world fee. */
  feeBps: number;
}

/** A seeded pool. */
export interface DevnetPool {
  dex: 0 | 1;
  address: Address;
  a: DevnetToken;
  b: DevnetToken;
  tvlUsd: bigint;
  /** USD price of `a` inside this pool, when it deliberately differs from the market. */
  priceAE18?: bigint;
  thin: boolean;
  /** The tiny pool of an unlisted token the wash trader churns. */
  wash: boolean;
  /** Holds a token that is in no token list. */
  unlisted: boolean;
}

/** What the trade generator and the config builder need to know about a deployed chain. */
export interface DevnetMarket {
  network: DevnetNetworkName;
  chainId: number;
  deployer: Address;
  wrapped: DevnetToken;
  /** Every deployed token by symbol: wrapped native, listed and unlisted. */
  tokens: Map<string, DevnetToken>;
  dexes: readonly [DevnetDex, DevnetDex];
  pools: DevnetPool[];
}

/**
 * A DEX of a devnet network, in the shape of the product's DexConfig (src/config/types.ts). The
 * devnet's own declaration: the product checks it where the demo hands the networks over
 * (src/main.ts), tests wherever they pass them on.
 */
export interface DevnetDexConfig {
  name: string;
  kind: "uniswap-v2" | "uniswap-v3" | "pancakeswap-v3";
  factory: Address;
  deployer?: Address;
  router?: Address;
  /** V2 fee numerator over 10_000; 0 for a V3 DEX (its pools carry their fees). */
  feeBps: number;
}

/** One token of a devnet network's token list (the token-lists standard). */
export interface DevnetTokenListEntry {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  tags?: string[];
}

/**
 * A devnet network in the shape of the product's NetworkConfig (src/config/types.ts): what the
 * indexer reads. Written to the manifest in the configuration-file format (writeManifest).
 */
export interface DevnetNetworkConfig {
  name: DevnetNetworkName;
  chainId: number;
  rpcUrls: string[];
  native: { name: string; symbol: string; aliases: string[]; decimals: number; wrapped: Address };
  dexes: DevnetDexConfig[];
  tokenList: {
    name: string;
    timestamp: string;
    version: { major: number; minor: number; patch: number };
    tokens: DevnetTokenListEntry[];
  };
  stablecoins: Address[];
  baseTokens: Address[];
  /** USD scaled by 10^18. */
  minLiquidityUsd: bigint;
  /** Start block of the backfill (the devnet leaves it out; benches set it). */
  startBlock?: bigint;
  windowDays: number;
  finalityDepth: number;
  pollIntervalMs: number;
  maxLogRange: number;
  maxStalenessSeconds: number;
  rpc: {
    timeoutMs: number;
    requestsPerSecond: number;
    costModel: "computeUnits";
    maxLogAddresses: number;
    retryDelayMs: number;
    cooldownMs: number;
  };
}
