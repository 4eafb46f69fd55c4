import type { Address, Hash, Hex } from "viem";
import type { ChainWriter } from "./anvil/createChainWriter.js";
import type { BusyHistorySummary } from "./cases/busyBlockTypes.js";
import { type ChainCaseSimulation, createChainCaseSimulation } from "./cases/createChainCaseSimulation.js";
import { type BusyChain, deployBusyChain } from "./cases/deployBusyChain.js";
import { deployChainCases } from "./cases/deployChainCases.js";
import { simulateBusyHistory } from "./cases/simulateBusyHistory.js";
import { createPrng } from "./createPrng.js";
import type { BusyChainContracts, ChainCaseContracts } from "./deploy/loadDevnetContracts.js";
import type { DevnetMarket } from "./devnetTypes.js";
import type { MarketFlow } from "./market/createMarketFlow.js";
import type { ReferencePrices } from "./market/createReferencePrices.js";
import type { TradeEncoder } from "./market/createTradeEncoder.js";
import type { TradeGenerator } from "./market/createTradeGenerator.js";
import { pickOffMarketPair } from "./market/pickOffMarketPair.js";
import { type HistorySummary, simulateHistory } from "./market/simulateHistory.js";
import { mixSeed } from "./mixSeed.js";
import type { DevnetPreset } from "./presets/devnetPresets.js";
import type { BlockMix } from "./presets/devnetProfiles.js";
import type { V3Flow } from "./v3/createV3Flow.js";
import type { DevnetV3 } from "./v3/v3Types.js";

const DAY = 86_400;

/** Options of simulateChainHistory. */
export interface SimulateChainHistoryOptions {
  preset: DevnetPreset;
  seed: number;
  days: number;
  trades: number;
  tradesPerBlock?: number | undefined;
  endTimestamp: number;
  market: DevnetMarket;
  traders: readonly Address[];
  generator: TradeGenerator;
  encoder: TradeEncoder;
  flow: MarketFlow;
  reference: ReferencePrices;
  /** DevnetToken.sol's creation code. */
  devnetToken: Hex;
  artifacts: { factory: `0x${string}`; router: `0x${string}`; pairInitCodeHash: Hash };
  chainCaseBytecode?: (() => Promise<ChainCaseContracts>) | undefined;
  busy?: { mix: BlockMix; blocks: number; contracts: () => Promise<BusyChainContracts> } | undefined;
  /** The V3 pools' flow: traded in the spread-out history's blocks (not in the BSC-shaped one). */
  v3?: V3Flow;
  /** The V3 DEX: the chain cases route a trade through a V2 pool then one of its pools. */
  v3Dex?: DevnetV3;
  log: (message: string) => void;
}

/** The history a chain was given, the busy chain's extras and the cases that keep trading live. */
export interface ChainHistory {
  history: HistorySummary;
  busy: { chain: BusyChain; summary: BusyHistorySummary } | undefined;
  caseSimulation: ChainCaseSimulation | undefined;
}

/**
 * Mines a chain's history: the spread-out one, or the BSC-shaped one (the busy chain deployed
 * first); with the chain cases' contracts, the cases are set up first and traded in blocks between
 * the history's.
 */
export async function simulateChainHistory(
  writer: ChainWriter,
  options: SimulateChainHistoryOptions,
): Promise<ChainHistory> {
  const { preset, market, traders, generator, encoder, flow, reference, endTimestamp, log } = options;
  // Real-chain cases (a fork, direct pair swaps, an aggregator, a fee-on-transfer token, new
  // pools, a 0.25% DEX, unpriced tokens): set up now, traded in blocks between the history's.
  const caseSimulation =
    options.chainCaseBytecode === undefined
      ? undefined
      : createChainCaseSimulation(writer, {
          cases: await deployChainCases(writer, {
            market,
            stable: preset.stablecoins[0] as string,
            contracts: await options.chainCaseBytecode(),
            uniswap: options.artifacts,
            devnetToken: options.devnetToken,
            traders: traders.slice(-7),
            ...offMarketPairOf(preset, market),
          }),
          market,
          prng: createPrng(mixSeed(options.seed, preset.chainId, 7)),
          fromTimestamp: endTimestamp - options.days * DAY,
          toTimestamp: endTimestamp,
          // A pool of two listed tokens opens off the market mid-week; the arbitrageur comes later.
          offMarket: { arbitrageur: flow.arbitrageur, reference },
          ...(options.v3Dex === undefined ? {} : { v3: options.v3Dex }),
        });
  const interleave =
    caseSimulation === undefined ? {} : { interleave: (t: number) => caseSimulation.interleave(t) };
  if (options.busy === undefined) {
    const history = await simulateHistory(writer, {
      ...interleave,
      flow,
      generator,
      encoder,
      prng: createPrng(mixSeed(options.seed, preset.chainId, 2)),
      trades: options.trades,
      days: options.days,
      endTimestamp,
      ...(options.tradesPerBlock === undefined ? {} : { tradesPerBlock: options.tradesPerBlock }),
      ...(options.v3 === undefined ? {} : { v3: options.v3 }),
      log,
    });
    return { history, busy: undefined, caseSimulation };
  }
  const contracts = await options.busy.contracts();
  const chain = await deployBusyChain(writer, {
    market,
    traders,
    uniswap: options.artifacts,
    bytecode: {
      DevnetToken: options.devnetToken,
      DevnetFarm: contracts.DevnetFarm,
      DevnetAggregator: contracts.DevnetAggregator,
    },
    prng: createPrng(mixSeed(options.seed, preset.chainId, 8)),
    preapprove: options.busy.mix.preapprove,
  });
  log(
    `busy chain: foreign fork with ${chain.foreignPools.length} pools, ${chain.foreignTraders.length} foreign traders`,
  );
  const run = await simulateBusyHistory(writer, {
    ...interleave,
    market,
    busy: chain,
    mix: options.busy.mix,
    blocks: options.busy.blocks,
    endTimestamp,
    generator,
    encoder,
    flow,
    accounts: traders,
    prng: createPrng(mixSeed(options.seed, preset.chainId, 9)),
    log,
  });
  return { history: run.history, busy: { chain, summary: run.busy }, caseSimulation };
}

/** The chain cases' off-market pair of this market, as deployChainCases takes it (none: nothing). */
function offMarketPairOf(preset: DevnetPreset, market: DevnetMarket) {
  const pair = pickOffMarketPair(preset, market);
  return pair === undefined ? {} : { offMarketPair: pair };
}
