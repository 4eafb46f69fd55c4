import type { Address } from "viem";
import type { NetworkName } from "../domain/types.js";

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
  network: NetworkName;
  chainId: number;
  deployer: Address;
  wrapped: DevnetToken;
  /** Every deployed token by symbol: wrapped native, listed and unlisted. */
  tokens: Map<string, DevnetToken>;
  dexes: readonly [DevnetDex, DevnetDex];
  pools: DevnetPool[];
}
