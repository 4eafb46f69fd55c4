import type { Address } from "viem";
import type { DevnetToken } from "../devnetTypes.js";
import type { V3DexSpec } from "./v3Presets.js";

/** A concentrated-liquidity pool of a devnet chain. */
export interface DevnetV3Pool {
  address: Address;
  /** Fee in hundredths of a bip (500 = 0.05%). */
  fee: number;
  tickSpacing: number;
  token0: DevnetToken;
  token1: DevnetToken;
  tvlUsd: bigint;
  /** The tiny pool of an unlisted token priced off its market (the USD guard refuses it). */
  thin: boolean;
  /** USD price of token0 and token1 this pool was opened at when off the market (thin pool). */
  offMarket?: { price0E18: bigint; price1E18: bigint };
}

/** A liquidity position: `owner` burns and collects it on the pool directly. */
export interface DevnetV3Position {
  owner: Address;
  pool: Address;
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
}

/** The V3 DEX of a devnet chain: the official factory, our helpers, its pools and positions. */
export interface DevnetV3 {
  spec: V3DexSpec;
  factory: Address;
  /** PancakeSwap V3's pool deployer (our devnet equivalent); undefined for Uniswap V3. */
  deployer: Address | undefined;
  /** DevnetV3Router.sol: the swaps and positions of the simulated week go through it. */
  router: Address;
  /** QuoterV2 (Uniswap's official build) or DevnetV3Quoter (PancakeSwap, same interface). */
  quoter: Address;
  /** Uniswap's official SwapRouter (eth and polygon); undefined on bsc. */
  swapRouter: Address | undefined;
  pools: DevnetV3Pool[];
  /** The positions opened at setup. */
  positions: DevnetV3Position[];
}
