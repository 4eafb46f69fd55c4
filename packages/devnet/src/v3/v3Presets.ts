import type { DevnetNetworkName } from "../devnetTypes.js";

/** A concentrated-liquidity pool the devnet opens: `tvlUsd` whole dollars over its positions. */
interface V3PoolSpec {
  a: string;
  b: string;
  /** Fee in hundredths of a bip (500 = 0.05%). */
  fee: number;
  tvlUsd: bigint;
  /** The tiny full-range pool of an unlisted token, priced off its market: the USD guard refuses it. */
  thin?: true;
  /** USD price of `a` in a thin pool (off the market). */
  priceA?: string;
}

/** The V3 DEX of a demo network and its pools. */
export interface V3DexSpec {
  /** The name the network configuration gives it. */
  name: string;
  kind: "uniswap-v3" | "pancakeswap-v3";
  pools: V3PoolSpec[];
}

/**
 * PancakeSwap V3 on bsc (fee tiers 100/500/2500/10000), Uniswap V3 on eth and polygon
 * (500/3000/10000): the main pair at two tiers, a volatile token at two, a pair that makes
 * multi-hop routes, and the thin pool. Pools open at the reference prices, as the V2 pools do.
 */
export const V3_PRESETS: Readonly<Record<DevnetNetworkName, V3DexSpec>> = {
  bsc: {
    name: "PancakeSwap V3",
    kind: "pancakeswap-v3",
    pools: [
      { a: "WBNB", b: "USDT", fee: 500, tvlUsd: 4_000_000n },
      { a: "WBNB", b: "USDT", fee: 2500, tvlUsd: 1_500_000n },
      { a: "ETH", b: "WBNB", fee: 2500, tvlUsd: 1_000_000n },
      { a: "CAKE", b: "WBNB", fee: 2500, tvlUsd: 1_000_000n },
      { a: "CAKE", b: "WBNB", fee: 10000, tvlUsd: 300_000n },
      { a: "MOON", b: "USDT", fee: 10000, tvlUsd: 40n, thin: true, priceA: "0.2" },
    ],
  },
  eth: {
    name: "Uniswap V3",
    kind: "uniswap-v3",
    pools: [
      { a: "WETH", b: "USDC", fee: 500, tvlUsd: 5_000_000n },
      { a: "WETH", b: "USDC", fee: 3000, tvlUsd: 2_000_000n },
      { a: "WBTC", b: "WETH", fee: 3000, tvlUsd: 1_500_000n },
      { a: "PEPE", b: "WETH", fee: 3000, tvlUsd: 800_000n },
      { a: "PEPE", b: "WETH", fee: 10000, tvlUsd: 300_000n },
      { a: "MOON", b: "USDC", fee: 10000, tvlUsd: 40n, thin: true, priceA: "0.2" },
    ],
  },
  polygon: {
    name: "Uniswap V3",
    kind: "uniswap-v3",
    pools: [
      { a: "WPOL", b: "USDC", fee: 500, tvlUsd: 1_500_000n },
      { a: "WPOL", b: "USDC", fee: 3000, tvlUsd: 800_000n },
      { a: "WETH", b: "USDC", fee: 500, tvlUsd: 1_500_000n },
      { a: "QUICK", b: "WPOL", fee: 3000, tvlUsd: 400_000n },
      { a: "QUICK", b: "WPOL", fee: 10000, tvlUsd: 150_000n },
      { a: "MOON", b: "USDC", fee: 10000, tvlUsd: 40n, thin: true, priceA: "0.2" },
    ],
  },
};
