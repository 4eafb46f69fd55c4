import type { Address, Hash } from "../domain/types.js";
import type { DexKind } from "./types.js";

/** A V3 fee tier: the fee in hundredths of a basis point (500 = 0.05%) and its tick spacing. */
export interface FeeTier {
  fee: number;
  tickSpacing: number;
}

/** One official deployment of a DEX on one chain, as its makers' packages publish it. */
export interface DexPreset {
  kind: DexKind;
  factory: Address;
  /** PancakeSwap V3: the pools' CREATE2 deployer (not the factory). */
  deployer?: Address;
  /** keccak256 of the pair's (V2) or pool's (V3) creation code: pool addresses follow from it. */
  initCodeHash: Hash;
  /** A router that wraps and unwraps the native coin, where a package publishes one. */
  router?: Address;
  /** V2: the swap fee over 10,000; V3: 0 (each pool carries its own fee). */
  feeBps: number;
  /** V3: the fee tiers and their tick spacings. */
  feeTiers?: readonly FeeTier[];
}

/** The names a configuration's `dexes[].preset` may take. */
export const DEX_PRESET_NAMES = ["pancakeswap-v2", "pancakeswap-v3", "uniswap-v2", "uniswap-v3"] as const;
export type DexPresetName = (typeof DEX_PRESET_NAMES)[number];

const UNISWAP_V3_FEE_TIERS: readonly FeeTier[] = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
];

const PANCAKESWAP_V3_FEE_TIERS: readonly FeeTier[] = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 2500, tickSpacing: 50 },
  { fee: 10000, tickSpacing: 200 },
];

/**
 * The fee tiers each V3 design's factory enables at deployment (its makers' SDK): where a token
 * lookup looks for a token's pools (pools of tiers enabled later are found by their logs).
 */
export const V3_FEE_TIERS: Readonly<Record<Exclude<DexKind, "uniswap-v2">, readonly FeeTier[]>> = {
  "uniswap-v3": UNISWAP_V3_FEE_TIERS,
  "pancakeswap-v3": PANCAKESWAP_V3_FEE_TIERS,
};

const UNISWAP_V3_POOL_INIT_CODE_HASH: Hash =
  "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54";

/**
 * Official deployments by preset name and chain id (addresses lowercase). Every value is checked
 * against the makers' packages by test/config/dexPresets.test.ts:
 * - uniswap-v2: factory and router from @uniswap/sdk-core (V2_FACTORY_ADDRESSES,
 *   V2_ROUTER_ADDRESSES); init-code hash = keccak256 of @uniswap/v2-core's UniswapV2Pair build;
 *   fee 30 from UniswapV2Pair.sol's `mul(1000).sub(amountIn.mul(3))`.
 * - uniswap-v3: factory from @uniswap/sdk-core (V3_CORE_FACTORY_ADDRESSES, CHAIN_TO_ADDRESSES_MAP),
 *   router = SwapRouter02 (SWAP_ROUTER_02_ADDRESSES), init-code hash from @uniswap/v3-sdk
 *   (poolInitCodeHash), tick spacings from its TICK_SPACINGS. Its FeeAmount also lists 200, 300
 *   and 400, which the packages do not say these chains' factories enable: they are left out.
 * - pancakeswap-v2: factory and init-code hash from @pancakeswap/v2-sdk (FACTORY_ADDRESS_MAP,
 *   INIT_CODE_HASH_MAP); fee 25 = 10,000 - @pancakeswap/swap-sdk-core's _9975.
 * - pancakeswap-v3: factory, deployer, init-code hash, fee tiers and tick spacings from
 *   @pancakeswap/v3-sdk (FACTORY_ADDRESSES, DEPLOYER_ADDRESSES, POOL_INIT_CODE_HASHES, FeeAmount,
 *   TICK_SPACINGS).
 * Not here, because no installed package publishes them: PancakeSwap's routers on BSC (V2 and
 * V3), SushiSwap (Ethereum, Polygon) and QuickSwap (Polygon). config/mainnet.json names those
 * explicitly, and its test lists them as unchecked.
 */
export const DEX_PRESETS: Readonly<Record<DexPresetName, Readonly<Partial<Record<number, DexPreset>>>>> = {
  "pancakeswap-v2": {
    56: {
      kind: "uniswap-v2",
      factory: "0xca143ce32fe78f1f7019d7d551a6402fc5350c73",
      initCodeHash: "0x00fb7f630766e6a796048ea87d01acd3068e8ff67d078148a3fa3f4a84f69bd5",
      feeBps: 25,
    },
  },
  "pancakeswap-v3": {
    56: {
      kind: "pancakeswap-v3",
      factory: "0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865",
      deployer: "0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9",
      initCodeHash: "0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2",
      feeBps: 0,
      feeTiers: PANCAKESWAP_V3_FEE_TIERS,
    },
  },
  "uniswap-v2": {
    1: {
      kind: "uniswap-v2",
      factory: "0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f",
      initCodeHash: "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
      router: "0x7a250d5630b4cf539739df2c5dacb4c659f2488d",
      feeBps: 30,
    },
  },
  "uniswap-v3": {
    1: {
      kind: "uniswap-v3",
      factory: "0x1f98431c8ad98523631ae4a59f267346ea31f984",
      initCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
      router: "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45",
      feeBps: 0,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
    56: {
      kind: "uniswap-v3",
      factory: "0xdb1d10011ad0ff90774d0c6bb92e5c5c8b4461f7",
      initCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
      router: "0xb971ef87ede563556b2ed4b1c0b0019111dd85d2",
      feeBps: 0,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
    137: {
      kind: "uniswap-v3",
      factory: "0x1f98431c8ad98523631ae4a59f267346ea31f984",
      initCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
      router: "0x68b3465833fb72a70ecdf485e0e4c7bd8665fc45",
      feeBps: 0,
      feeTiers: UNISWAP_V3_FEE_TIERS,
    },
  },
};

/** The preset's deployment on a chain, or undefined when its makers publish none there. */
export function getDexPreset(name: DexPresetName, chainId: number): DexPreset | undefined {
  return DEX_PRESETS[name][chainId];
}
