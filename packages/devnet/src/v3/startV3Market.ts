import type { Address } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import { createPrng } from "../createPrng.js";
import type { V3Contracts } from "../deploy/loadDevnetContracts.js";
import type { DevnetDexConfig, DevnetMarket } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { mixSeed } from "../mixSeed.js";
import { createV3Flow, type V3Flow, type V3HistorySummary } from "./createV3Flow.js";
import { deployV3Market } from "./deployV3Market.js";
import { V3_PRESETS } from "./v3Presets.js";
import type { DevnetV3 } from "./v3Types.js";

// The traders who also trade V3 pools: each approves the helper for every V3 token at setup.
const V3_TRADERS = 20;

/** A chain's V3 DEX as plain data (all addresses lowercase). */
export interface DevnetV3Info {
  name: string;
  kind: "uniswap-v3" | "pancakeswap-v3";
  factory: Address;
  /** PancakeSwap V3's pool deployer; undefined for Uniswap V3. */
  deployer: Address | undefined;
  /** DevnetV3Router.sol: the helper the history trades and opens positions through. */
  router: Address;
  /** QuoterV2 (Uniswap's build) or DevnetV3Quoter (PancakeSwap): the same interface. */
  quoter: Address;
  /** Uniswap's official SwapRouter; undefined on bsc. */
  swapRouter: Address | undefined;
  pools: {
    address: Address;
    fee: number;
    tickSpacing: number;
    token0: Address;
    token1: Address;
    symbols: [string, string];
    tvlUsd: bigint;
    thin: boolean;
  }[];
  /** Positions opened at setup, before the history. */
  setupPositions: number;
  /** What the V3 flow did in the history (live trading adds to it). */
  history: V3HistorySummary;
}

/** The V3 DEX of a chain and the flow that trades it. */
export interface StartedV3Market {
  v3: DevnetV3;
  flow: V3Flow;
}

/**
 * Deploys the network's V3 DEX (V3_PRESETS) at `at` and creates its flow: positions owned by the
 * deployer and three traders at setup, twenty traders trading and six opening and closing more during the history,
 * the arbitrageur keeping prices on the reference.
 */
export async function startV3Market(
  writer: ChainWriter,
  options: {
    market: DevnetMarket;
    contracts: V3Contracts;
    deployer: Address;
    traders: readonly Address[];
    arbitrageur: Address;
    reference: ReferencePrices;
    seed: number;
    at: number;
    /** Share of the traders' trades also sent through the V3 pools (createV3Flow's default when absent). */
    share?: number;
  },
): Promise<StartedV3Market> {
  const { market, traders, arbitrageur, reference } = options;
  const v3 = await deployV3Market(writer, {
    spec: V3_PRESETS[market.network],
    market,
    contracts: options.contracts,
    deployer: options.deployer,
    providers: traders.slice(0, 3),
    approvers: [...traders.slice(0, V3_TRADERS), arbitrageur],
    reference,
    at: options.at,
  });
  const flow = createV3Flow({
    v3,
    traders: traders.slice(0, V3_TRADERS),
    providers: traders.slice(0, 6),
    arbitrageur,
    reference,
    prng: createPrng(mixSeed(options.seed, market.chainId, 11)),
    ...(options.share === undefined ? {} : { share: options.share }),
  });
  return { v3, flow };
}

/** The plain-data view of a started V3 market. */
export function buildV3Info(started: StartedV3Market): DevnetV3Info {
  const { v3, flow } = started;
  return {
    name: v3.spec.name,
    kind: v3.spec.kind,
    factory: v3.factory,
    deployer: v3.deployer,
    router: v3.router,
    quoter: v3.quoter,
    swapRouter: v3.swapRouter,
    pools: v3.pools.map((p) => ({
      address: p.address,
      fee: p.fee,
      tickSpacing: p.tickSpacing,
      token0: p.token0.address,
      token1: p.token1.address,
      symbols: [p.token0.symbol, p.token1.symbol],
      tvlUsd: p.tvlUsd,
      thin: p.thin,
    })),
    setupPositions: v3.positions.length,
    history: flow.summary,
  };
}

/** The V3 DEX as the network configuration lists it. */
export function buildV3DexConfig(info: DevnetV3Info): DevnetDexConfig {
  return {
    name: info.name,
    kind: info.kind,
    factory: info.factory,
    ...(info.deployer === undefined ? {} : { deployer: info.deployer }),
    // V3 pools carry their own fee.
    feeBps: 0,
  };
}
