import type { Address } from "../../src/domain/types.js";
import type { PoolState, PricingParams } from "../../src/pricing/types.js";

/** A readable fake address: 0x + the label's hex padded to 20 bytes (lowercase, like the domain wants). */
export function addr(label: string): Address {
  const hex = Buffer.from(label, "utf8").toString("hex");
  return `0x${hex.padStart(40, "0").slice(-40)}`;
}

let poolCounter = 0;

/** A hand-made pool; reserves are given for tokenA and tokenB (sorted into token0/token1 here). */
export function makePool(
  tokenA: Address,
  tokenB: Address,
  reserveA: bigint,
  reserveB: bigint,
  options: { feeBps?: number; dex?: string; address?: Address } = {},
): PoolState {
  poolCounter++;
  const aFirst = tokenA < tokenB;
  return {
    address: options.address ?? addr(`pool${poolCounter}`),
    dex: options.dex ?? "uniswap-v2",
    factory: addr(options.dex ?? "uniswap-v2"),
    token0: aFirst ? tokenA : tokenB,
    token1: aFirst ? tokenB : tokenA,
    reserve0: aFirst ? reserveA : reserveB,
    reserve1: aFirst ? reserveB : reserveA,
    feeBps: options.feeBps ?? 30,
  };
}

/** `n` whole units of a token with `decimals`. */
export function units(n: bigint | number, decimals: number): bigint {
  return BigInt(n) * 10n ** BigInt(decimals);
}

export const WETH = addr("WETH");
export const USDC = addr("USDC");
export const DAI = addr("DAI");
export const USDT = addr("USDT");
export const WBTC = addr("WBTC");
export const LINK = addr("LINK");
export const UNI = addr("UNI");
export const MEME = addr("MEME");
export const JUNK = addr("JUNK");

const DECIMALS = new Map<Address, number>([
  [WETH, 18],
  [USDC, 6],
  [DAI, 18],
  [USDT, 6],
  [WBTC, 8],
  [LINK, 18],
  [UNI, 18],
  [MEME, 9],
  [JUNK, 18],
]);

/** Pricing parameters of a mainnet-like network; minimum liquidity 10,000 USD. */
export function makeParams(overrides: Partial<PricingParams> = {}): PricingParams {
  return {
    wrappedNative: WETH,
    stablecoins: new Set([USDC, DAI, USDT]),
    baseTokens: new Set([WETH, USDC, DAI, USDT, WBTC]),
    minLiquidityUsd: units(10_000, 18),
    decimals: (token) => DECIMALS.get(token),
    ...overrides,
  };
}
