import type { DevnetNetworkName } from "../devnetTypes.js";

/** An ERC-20 the devnet deploys, with its real-world metadata and a realistic USD price. */
interface DevnetTokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** Decimal string: the USD reference price now, where the week's random walk ends. */
  priceUsd: string;
  /**
   * Daily volatility of the reference price (0.02 = 2% a day) over the simulated history;
   * default 0.02, stablecoins 0 (pegged at 1).
   */
  volatility?: number;
}

/** A pool the devnet seeds: `tvlUsd` whole dollars split evenly between both sides. */
export interface DevnetPoolSpec {
  /** Index into the preset's `dexes`. */
  dex: 0 | 1;
  a: string;
  b: string;
  tvlUsd: bigint;
  /** USD price of `a` in this pool when it is meant to be off the market (the thin pool). */
  priceA?: string;
  /** The thin, mispriced pool of an unlisted token the USD guard must refuse. */
  thin?: true;
  /** The tiny pool of an unlisted token a wash trader churns with huge notional amounts. */
  wash?: true;
}

/** Everything that differs between the three demo networks. */
export interface DevnetPreset {
  network: DevnetNetworkName;
  chainId: number;
  native: { name: string; symbol: string; aliases: string[]; priceUsd: string; volatility?: number };
  wrapped: { name: string; symbol: string };
  /** Two independent Uniswap-V2 deployments; the first is the deeper one. */
  dexes: readonly [string, string];
  /** Tokens in the network's token list (besides the wrapped native). */
  tokens: DevnetTokenSpec[];
  /** Tokens in no token list: reachable only by address. */
  unlisted: DevnetTokenSpec[];
  stablecoins: string[];
  /** Routing intermediates and pricing whitelist (symbols, the wrapped native included). */
  baseTokens: string[];
  pools: DevnetPoolSpec[];
}

const UNLISTED: DevnetTokenSpec[] = [
  { symbol: "MOON", name: "Moon Shot", decimals: 18, priceUsd: "0.002" },
  { symbol: "RUG", name: "Rug Pull", decimals: 9, priceUsd: "0.0005" },
];

const BSC: DevnetPreset = {
  network: "bsc",
  chainId: 56,
  native: { name: "BNB", symbol: "BNB", aliases: [], priceUsd: "600", volatility: 0.015 },
  wrapped: { name: "Wrapped BNB", symbol: "WBNB" },
  dexes: ["pancakeswap-v2", "biswap"],
  tokens: [
    { symbol: "USDT", name: "Tether USD", decimals: 18, priceUsd: "1" },
    { symbol: "USDC", name: "USD Coin", decimals: 18, priceUsd: "1" },
    { symbol: "BUSD", name: "BUSD Token", decimals: 18, priceUsd: "1" },
    { symbol: "BTCB", name: "BTCB Token", decimals: 18, priceUsd: "60000", volatility: 0.012 },
    { symbol: "ETH", name: "Ethereum Token", decimals: 18, priceUsd: "3000", volatility: 0.015 },
    { symbol: "CAKE", name: "PancakeSwap Token", decimals: 18, priceUsd: "2.5" },
    { symbol: "DOGE", name: "Dogecoin", decimals: 8, priceUsd: "0.15", volatility: 0.028 },
    { symbol: "XRP", name: "XRP Token", decimals: 18, priceUsd: "0.5" },
    { symbol: "ADA", name: "Cardano Token", decimals: 18, priceUsd: "0.45" },
  ],
  unlisted: UNLISTED,
  stablecoins: ["USDT", "USDC", "BUSD"],
  baseTokens: ["WBNB", "USDT", "USDC", "BUSD", "BTCB", "ETH"],
  pools: [
    { dex: 0, a: "WBNB", b: "USDT", tvlUsd: 30_000_000n },
    { dex: 0, a: "WBNB", b: "BUSD", tvlUsd: 12_000_000n },
    { dex: 0, a: "WBNB", b: "USDC", tvlUsd: 6_000_000n },
    { dex: 0, a: "USDT", b: "BUSD", tvlUsd: 8_000_000n },
    { dex: 0, a: "USDT", b: "USDC", tvlUsd: 5_000_000n },
    { dex: 0, a: "BTCB", b: "WBNB", tvlUsd: 16_000_000n },
    { dex: 0, a: "BTCB", b: "USDT", tvlUsd: 8_000_000n },
    { dex: 0, a: "ETH", b: "WBNB", tvlUsd: 5_000_000n },
    { dex: 0, a: "ETH", b: "USDT", tvlUsd: 2_000_000n },
    { dex: 0, a: "CAKE", b: "WBNB", tvlUsd: 6_000_000n },
    { dex: 0, a: "CAKE", b: "USDT", tvlUsd: 2_000_000n },
    { dex: 0, a: "DOGE", b: "WBNB", tvlUsd: 1_500_000n },
    { dex: 0, a: "XRP", b: "WBNB", tvlUsd: 1_200_000n },
    { dex: 0, a: "ADA", b: "WBNB", tvlUsd: 900_000n },
    { dex: 0, a: "MOON", b: "WBNB", tvlUsd: 60_000n },
    { dex: 1, a: "WBNB", b: "USDT", tvlUsd: 3_000_000n },
    { dex: 1, a: "BTCB", b: "USDT", tvlUsd: 600_000n },
    { dex: 1, a: "ETH", b: "WBNB", tvlUsd: 400_000n },
    { dex: 1, a: "USDT", b: "USDC", tvlUsd: 400_000n },
    { dex: 1, a: "WBNB", b: "BUSD", tvlUsd: 300_000n },
    { dex: 1, a: "DOGE", b: "USDT", tvlUsd: 150_000n },
    { dex: 1, a: "XRP", b: "USDT", tvlUsd: 80_000n },
    { dex: 1, a: "MOON", b: "USDT", tvlUsd: 50n, priceA: "0.2", thin: true },
    { dex: 1, a: "RUG", b: "WBNB", tvlUsd: 120n, wash: true },
  ],
};

const ETH: DevnetPreset = {
  network: "eth",
  chainId: 1,
  native: { name: "Ether", symbol: "ETH", aliases: [], priceUsd: "3000", volatility: 0.015 },
  wrapped: { name: "Wrapped Ether", symbol: "WETH" },
  dexes: ["uniswap-v2", "sushiswap"],
  tokens: [
    { symbol: "USDC", name: "USD Coin", decimals: 6, priceUsd: "1" },
    { symbol: "USDT", name: "Tether USD", decimals: 6, priceUsd: "1" },
    { symbol: "DAI", name: "Dai Stablecoin", decimals: 18, priceUsd: "1" },
    { symbol: "WBTC", name: "Wrapped BTC", decimals: 8, priceUsd: "60000", volatility: 0.012 },
    { symbol: "LINK", name: "ChainLink Token", decimals: 18, priceUsd: "15" },
    { symbol: "UNI", name: "Uniswap", decimals: 18, priceUsd: "8" },
    { symbol: "AAVE", name: "Aave Token", decimals: 18, priceUsd: "100" },
    { symbol: "SHIB", name: "SHIBA INU", decimals: 18, priceUsd: "0.00002", volatility: 0.03 },
    { symbol: "PEPE", name: "Pepe", decimals: 18, priceUsd: "0.00001", volatility: 0.03 },
  ],
  unlisted: UNLISTED,
  stablecoins: ["USDC", "USDT", "DAI"],
  baseTokens: ["WETH", "USDC", "USDT", "DAI", "WBTC"],
  pools: [
    { dex: 0, a: "WETH", b: "USDC", tvlUsd: 40_000_000n },
    { dex: 0, a: "WETH", b: "USDT", tvlUsd: 20_000_000n },
    { dex: 0, a: "WETH", b: "DAI", tvlUsd: 10_000_000n },
    { dex: 0, a: "USDC", b: "USDT", tvlUsd: 8_000_000n },
    { dex: 0, a: "DAI", b: "USDC", tvlUsd: 6_000_000n },
    { dex: 0, a: "WBTC", b: "WETH", tvlUsd: 15_000_000n },
    { dex: 0, a: "WBTC", b: "USDC", tvlUsd: 3_000_000n },
    { dex: 0, a: "LINK", b: "WETH", tvlUsd: 4_000_000n },
    { dex: 0, a: "UNI", b: "WETH", tvlUsd: 5_000_000n },
    { dex: 0, a: "AAVE", b: "WETH", tvlUsd: 2_000_000n },
    { dex: 0, a: "SHIB", b: "WETH", tvlUsd: 3_000_000n },
    { dex: 0, a: "PEPE", b: "WETH", tvlUsd: 2_000_000n },
    { dex: 0, a: "MOON", b: "WETH", tvlUsd: 60_000n },
    { dex: 1, a: "WETH", b: "USDC", tvlUsd: 5_000_000n },
    { dex: 1, a: "WETH", b: "USDT", tvlUsd: 2_000_000n },
    { dex: 1, a: "WBTC", b: "WETH", tvlUsd: 1_500_000n },
    { dex: 1, a: "DAI", b: "WETH", tvlUsd: 1_000_000n },
    { dex: 1, a: "LINK", b: "WETH", tvlUsd: 400_000n },
    { dex: 1, a: "AAVE", b: "WETH", tvlUsd: 300_000n },
    { dex: 1, a: "UNI", b: "USDC", tvlUsd: 120_000n },
    { dex: 1, a: "MOON", b: "USDC", tvlUsd: 50n, priceA: "0.2", thin: true },
    { dex: 1, a: "RUG", b: "WETH", tvlUsd: 120n, wash: true },
  ],
};

const POLYGON: DevnetPreset = {
  network: "polygon",
  chainId: 137,
  native: {
    name: "Polygon Ecosystem Token",
    symbol: "POL",
    aliases: ["MATIC"],
    priceUsd: "0.5",
    volatility: 0.02,
  },
  wrapped: { name: "Wrapped Polygon Ecosystem Token", symbol: "WPOL" },
  dexes: ["quickswap", "sushiswap"],
  tokens: [
    { symbol: "USDC", name: "USD Coin", decimals: 6, priceUsd: "1" },
    { symbol: "USDT", name: "(PoS) Tether USD", decimals: 6, priceUsd: "1" },
    { symbol: "DAI", name: "(PoS) Dai Stablecoin", decimals: 18, priceUsd: "1" },
    { symbol: "WBTC", name: "(PoS) Wrapped BTC", decimals: 8, priceUsd: "60000", volatility: 0.012 },
    { symbol: "WETH", name: "Wrapped Ether", decimals: 18, priceUsd: "3000", volatility: 0.015 },
    { symbol: "LINK", name: "ChainLink Token", decimals: 18, priceUsd: "15" },
    { symbol: "AAVE", name: "Aave (PoS)", decimals: 18, priceUsd: "100" },
    { symbol: "QUICK", name: "QuickSwap", decimals: 18, priceUsd: "0.05" },
    { symbol: "CRV", name: "CRV (PoS)", decimals: 18, priceUsd: "0.4" },
  ],
  unlisted: UNLISTED,
  stablecoins: ["USDC", "USDT", "DAI"],
  baseTokens: ["WPOL", "USDC", "USDT", "DAI", "WBTC", "WETH"],
  pools: [
    { dex: 0, a: "WPOL", b: "USDC", tvlUsd: 6_000_000n },
    { dex: 0, a: "WPOL", b: "USDT", tvlUsd: 3_000_000n },
    { dex: 0, a: "WPOL", b: "WETH", tvlUsd: 4_000_000n },
    { dex: 0, a: "WETH", b: "USDC", tvlUsd: 8_000_000n },
    { dex: 0, a: "WETH", b: "USDT", tvlUsd: 3_000_000n },
    { dex: 0, a: "USDC", b: "USDT", tvlUsd: 4_000_000n },
    { dex: 0, a: "DAI", b: "USDC", tvlUsd: 2_000_000n },
    { dex: 0, a: "WBTC", b: "WETH", tvlUsd: 8_000_000n },
    { dex: 0, a: "WBTC", b: "USDC", tvlUsd: 1_500_000n },
    { dex: 0, a: "LINK", b: "WETH", tvlUsd: 1_000_000n },
    { dex: 0, a: "AAVE", b: "WETH", tvlUsd: 800_000n },
    { dex: 0, a: "QUICK", b: "WPOL", tvlUsd: 1_200_000n },
    { dex: 0, a: "QUICK", b: "USDC", tvlUsd: 500_000n },
    { dex: 0, a: "CRV", b: "WETH", tvlUsd: 400_000n },
    { dex: 0, a: "MOON", b: "WPOL", tvlUsd: 60_000n },
    { dex: 1, a: "WPOL", b: "USDC", tvlUsd: 1_000_000n },
    { dex: 1, a: "WETH", b: "USDC", tvlUsd: 2_000_000n },
    { dex: 1, a: "WBTC", b: "WETH", tvlUsd: 600_000n },
    { dex: 1, a: "DAI", b: "USDC", tvlUsd: 300_000n },
    { dex: 1, a: "WPOL", b: "WETH", tvlUsd: 500_000n },
    { dex: 1, a: "CRV", b: "WPOL", tvlUsd: 100_000n },
    { dex: 1, a: "MOON", b: "USDC", tvlUsd: 50n, priceA: "0.2", thin: true },
    { dex: 1, a: "RUG", b: "WPOL", tvlUsd: 120n, wash: true },
  ],
};

/** The three demo networks, keyed by the name the public API uses. */
export const DEVNET_PRESETS: Readonly<Record<DevnetNetworkName, DevnetPreset>> = {
  bsc: BSC,
  eth: ETH,
  polygon: POLYGON,
};
