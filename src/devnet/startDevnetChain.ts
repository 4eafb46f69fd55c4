import { type Address, type Hash, toHex } from "viem";
import type { NetworkName } from "../domain/types.js";
import { type ChainCasesInfo, createChainCaseSimulation } from "./createChainCaseSimulation.js";
import { type ChainWriter, createChainWriter } from "./createChainWriter.js";
import { createMarketFlow, type MarketFlow } from "./createMarketFlow.js";
import { createPrng } from "./createPrng.js";
import { createReferencePrices } from "./createReferencePrices.js";
import { createTradeEncoder } from "./createTradeEncoder.js";
import { createTradeGenerator } from "./createTradeGenerator.js";
import { type BusyChain, deployBusyChain } from "./deployBusyChain.js";
import { deployChainCases } from "./deployChainCases.js";
import { deployDex } from "./deployDex.js";
import { deployHostileTokens, type HostileTokenAddresses } from "./deployHostileTokens.js";
import { deployTokens } from "./deployTokens.js";
import { uniswapV2FactoryAbi } from "./devnetAbis.js";
import type { DevnetPreset } from "./devnetPresets.js";
import type { BlockMix } from "./devnetProfiles.js";
import type { DevnetDex, DevnetMarket } from "./devnetTypes.js";
import { fundTraders } from "./fundTraders.js";
import type { BusyChainContracts, ChainCaseContracts, CompiledContracts } from "./loadDevnetContracts.js";
import { pickOffMarketPair } from "./pickOffMarketPair.js";
import { planLiquidity } from "./planLiquidity.js";
import { seedLiquidity } from "./seedLiquidity.js";
import { type BusyHistorySummary, simulateBusyHistory } from "./simulateBusyHistory.js";
import { type HistorySummary, simulateHistory } from "./simulateHistory.js";
import { type Anvil, startAnvil } from "./startAnvil.js";
import { type LiveTrading, startLiveTrading } from "./startLiveTrading.js";
import { parseUsd } from "./usdToUnits.js";

/** A pool of a devnet chain, as plain data. */
export interface DevnetPoolInfo {
  dex: string;
  address: Address;
  symbols: [string, string];
  tvlUsd: bigint;
  thin: boolean;
  /** The tiny pool of an unlisted token the wash trader churns. */
  wash: boolean;
}

/** What a BSC-shaped chain has and did besides the market (all addresses lowercase). */
export interface BusyChainInfo {
  mix: BlockMix;
  /** The unconfigured Uniswap V2 fork and its many pools: their swaps must never be indexed. */
  foreign: { factory: Address; router: Address; pools: Address[] };
  /** Meme tokens only the foreign fork trades, by symbol. */
  foreignTokens: Record<string, Address>;
  /** Another protocol whose harvests emit logs. */
  farm: Address;
  aggregator: Address;
  summary: BusyHistorySummary;
}

/** Plain facts about one running devnet chain (all addresses lowercase). */
export interface DevnetChainInfo {
  network: NetworkName;
  chainId: number;
  rpcUrl: string;
  /** Process id of its anvil. */
  pid: number;
  wrapped: Address;
  /** The configured DEXes: the preset's two, then the chain cases' 0.25% DEX when there is one. */
  dexes: DevnetDex[];
  /** Listed tokens by symbol, the wrapped native included. */
  tokens: Record<string, Address>;
  /** Tokens in no token list, by symbol. */
  unlisted: Record<string, Address>;
  /** The tiny pool of an unlisted token whose price is far off that token's market. */
  thinPool: Address;
  /** The tiny pool the wash trader churns with huge notional amounts ("0x" when none). */
  washPool: Address;
  /** USD reference price (10^18-scaled) of every listed token now: what the arbitrage follows. */
  referencePricesUsd: Record<string, bigint>;
  /** Unlocked account that arbitrages the pools back toward the reference prices. */
  arbitrageur: Address;
  /** Unlocked account that wash trades the wash pool. */
  washTrader: Address;
  pools: DevnetPoolInfo[];
  /** Unlocked anvil accounts that traded in the history. */
  traders: Address[];
  /** Unlocked anvil account that deployed everything and owns the liquidity. */
  deployer: Address;
  history: HistorySummary;
  /** Tokens whose metadata attacks readers (deployHostileTokens); in no token list. */
  hostile: HostileTokenAddresses;
  /** The real-chain cases mined during the history (undefined when not asked for). */
  chainCases: ChainCasesInfo | undefined;
  /** The BSC-shaped history's extras (undefined unless asked for). */
  busy: BusyChainInfo | undefined;
  timings: { anvilMs: number; setupMs: number; historyMs: number };
}

/** A running devnet chain with what is needed to keep trading on it. */
export interface DevnetChainHandle {
  info: DevnetChainInfo;
  market: DevnetMarket;
  /** The arbitrage and wash trading that follow each block; tell its arbitrageur about new pools. */
  flow: MarketFlow;
  writer: ChainWriter;
  anvil: Anvil;
  /** Starts trading at the current time every `intervalMs` on average. */
  startLiveTrading(intervalMs: number, log?: (message: string) => void): LiveTrading;
}

/** Options of one devnet chain. */
export interface StartDevnetChainOptions {
  preset: DevnetPreset;
  seed: number;
  days: number;
  trades: number;
  traders: number;
  tradesPerBlock?: number;
  /** Unix seconds the history ends at (default: now). */
  endTimestamp?: number;
  /** The devnet's own tokens (committed artifacts, see loadDevnetContracts). */
  bytecode: () => Promise<CompiledContracts>;
  /** The real-chain cases' contracts: when given, the cases are deployed and traded during the history. */
  chainCaseBytecode?: () => Promise<ChainCaseContracts>;
  artifacts: { factory: `0x${string}`; router: `0x${string}`; pairInitCodeHash: Hash };
  /**
   * A BSC-shaped history instead of the spread-out one: `blocks` full blocks 3 s apart ending at
   * endTimestamp, each as `mix` says (simulateBusyHistory); `trades` and `tradesPerBlock` are then
   * unused. `days` should cover the blocks (the chain cases spread their rounds over it).
   */
  busy?: { mix: BlockMix; blocks: number; contracts: () => Promise<BusyChainContracts> };
  log?: (message: string) => void;
}

const DAY = 86_400;
// Every trader holds this much of each token and tens of times more native coin: plenty for the history.
const TRADER_USD_PER_TOKEN = parseUsd("3000000");
const TRADER_NATIVE_USD = parseUsd("50000000");
// 150 traders x 12 tokens x up to 120k gas is 216M, under anvil's 300M block gas limit.
const TRADERS_FUNDED_PER_BLOCK = 150;
// The arbitrageur and the wash trader hold far more than any pool: their inventory never runs out.
const MARKET_MAKER_USD_PER_TOKEN = parseUsd("1000000000");

/** Starts anvil for one network, deploys tokens and two DEXes, seeds pools and mines the history. */
export async function startDevnetChain(options: StartDevnetChainOptions): Promise<DevnetChainHandle> {
  const { preset } = options;
  const log = (message: string) => options.log?.(`[${preset.network}] ${message}`);
  const endTimestamp = options.endTimestamp ?? Math.floor(Date.now() / 1000);
  const genesis = endTimestamp - Math.ceil(options.days * DAY) - 3600;
  const nativePrice = parseUsd(preset.native.priceUsd);

  let started = performance.now();
  const anvil = await startAnvil({
    chainId: preset.chainId,
    // The deployer, the traders, the arbitrageur and the wash trader.
    accounts: options.traders + 3,
    balance: TRADER_NATIVE_USD / nativePrice + 1n,
    mnemonicSeed: mixSeed(options.seed, preset.chainId, 0),
    genesisTimestamp: genesis,
  });
  const anvilMs = Math.round(performance.now() - started);
  try {
    started = performance.now();
    const writer = createChainWriter(anvil.rpcUrl);
    const accounts = (await writer.client.request({ method: "eth_accounts", params: [] })).map(
      (a) => a.toLowerCase() as Address,
    );
    const deployer = accounts[0] as Address;
    const traders = accounts.slice(1, 1 + options.traders);
    const [arbitrageur, washTrader] = accounts.slice(1 + options.traders) as [Address, Address];
    // The deployer seeds every pool's native side: give it far more than any trader.
    for (const rich of [deployer, arbitrageur, washTrader])
      await writer.client.request({ method: "anvil_setBalance", params: [rich, toHex(10n ** 36n)] });

    // The pools open at the reference prices of the history's start; the walk ends at the preset's.
    const reference = createReferencePrices(preset, createPrng(mixSeed(options.seed, preset.chainId, 5)), {
      fromTimestamp: genesis,
      toTimestamp: endTimestamp,
    });
    const plan = planLiquidity(preset, (symbol) => reference.at(symbol, genesis));
    const supplies = new Map<string, bigint>();
    for (const { spec, amountA, amountB } of plan) {
      supplies.set(spec.a, (supplies.get(spec.a) ?? 0n) + amountA);
      supplies.set(spec.b, (supplies.get(spec.b) ?? 0n) + amountB);
    }
    const bytecode = await options.bytecode();
    const setupHashes: Hash[] = [];
    const deployed = await deployTokens(writer, {
      preset,
      bytecode,
      deployer,
      initialSupply: (symbol) => supplies.get(symbol) ?? 0n,
    });
    setupHashes.push(...deployed.hashes);
    const dexes: DevnetDex[] = [];
    for (const name of preset.dexes) {
      const result = await deployDex(writer, {
        name,
        deployer,
        wrapped: deployed.wrapped.address,
        artifacts: options.artifacts,
      });
      dexes.push(result.dex);
      setupHashes.push(...result.hashes);
    }
    const dexPair = [dexes[0], dexes[1]] as [DevnetDex, DevnetDex];
    const seeded = await seedLiquidity(writer, {
      deployer,
      tokens: deployed.tokens,
      dexes: dexPair,
      plan,
      pairInitCodeHash: options.artifacts.pairInitCodeHash,
    });
    setupHashes.push(...seeded.hashes);
    await writer.mine(genesis + 60);
    // In a block of their own, so the setup block's gas stays as it was.
    const hostile = await deployHostileTokens(writer, {
      bytecode: bytecode.HostileToken,
      deployer,
      pool: {
        dex: dexPair[0],
        wrapped: deployed.wrapped.address,
        pairInitCodeHash: options.artifacts.pairInitCodeHash,
      },
    });
    setupHashes.push(...hostile.hashes);
    await writer.mine(genesis + 90);
    setupHashes.push(
      ...(await fundTraders(writer, {
        deployer,
        traders: [arbitrageur, washTrader],
        tokens: deployed.tokens.values(),
        usdPerToken: MARKET_MAKER_USD_PER_TOKEN,
      })),
    );
    // A block holds the funding of about 150 traders (one mint or deposit per token each).
    for (let from = 0, block = 0; from < traders.length; from += TRADERS_FUNDED_PER_BLOCK, block++) {
      setupHashes.push(
        ...(await fundTraders(writer, {
          deployer,
          traders: traders.slice(from, from + TRADERS_FUNDED_PER_BLOCK),
          tokens: deployed.tokens.values(),
          usdPerToken: TRADER_USD_PER_TOKEN,
        })),
      );
      await writer.mine(genesis + 120 + block);
    }
    await writer.assertPoolEmpty();
    await writer.assertSucceeded(setupHashes);
    await assertPairs(writer, seeded.pools, dexPair);
    const setupMs = Math.round(performance.now() - started);
    log(
      `deployed ${deployed.tokens.size} tokens, 2 DEXes, ${seeded.pools.length} pools, funded ${traders.length} traders in ${setupMs} ms`,
    );

    const market: DevnetMarket = {
      network: preset.network,
      chainId: preset.chainId,
      deployer,
      wrapped: deployed.wrapped,
      tokens: deployed.tokens,
      dexes: dexPair,
      pools: seeded.pools,
    };
    const generator = createTradeGenerator(
      market,
      traders,
      createPrng(mixSeed(options.seed, preset.chainId, 1)),
    );
    // A mix that approves up front has every trader approve both routers before the history.
    const encoder = createTradeEncoder(
      market,
      options.busy?.mix.preapprove === true ? { traders, routers: dexPair.map((d) => d.router) } : undefined,
    );
    const flow = createMarketFlow(writer.client, market, {
      reference,
      arbitrageur,
      washTrader,
      prng: createPrng(mixSeed(options.seed, preset.chainId, 6)),
    });
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
              devnetToken: bytecode.DevnetToken,
              traders: traders.slice(-7),
              ...offMarketPairOf(preset, market),
            }),
            market,
            prng: createPrng(mixSeed(options.seed, preset.chainId, 7)),
            fromTimestamp: endTimestamp - options.days * DAY,
            toTimestamp: endTimestamp,
            // A pool of two listed tokens opens off the market mid-week; the arbitrageur comes later.
            offMarket: { arbitrageur: flow.arbitrageur, reference },
          });
    const interleave =
      caseSimulation === undefined ? {} : { interleave: (t: number) => caseSimulation.interleave(t) };
    let busy: { chain: BusyChain; summary: BusyHistorySummary } | undefined;
    let history: HistorySummary;
    if (options.busy === undefined) {
      history = await simulateHistory(writer, {
        ...interleave,
        flow,
        generator,
        encoder,
        prng: createPrng(mixSeed(options.seed, preset.chainId, 2)),
        trades: options.trades,
        days: options.days,
        endTimestamp,
        ...(options.tradesPerBlock === undefined ? {} : { tradesPerBlock: options.tradesPerBlock }),
        log,
      });
    } else {
      const contracts = await options.busy.contracts();
      const chain = await deployBusyChain(writer, {
        market,
        traders,
        uniswap: options.artifacts,
        bytecode: {
          DevnetToken: bytecode.DevnetToken,
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
      history = run.history;
      busy = { chain, summary: run.busy };
    }
    const chainCases = await caseSimulation?.finish();
    if (chainCases !== undefined) {
      log(
        `chain cases: ${Object.values(chainCases.txs).flat().length} transactions (${chainCases.swapLogs} swaps) in ${chainCases.blocks} blocks between the history's`,
      );
    }
    log(
      `history: ${history.trades} trades, ${history.arbitrageTrades} arbitrage, ${history.washTrades} wash (${history.swapLogs} swaps) in ${history.blocks} blocks, ${history.ms} ms`,
    );

    const thin = seeded.pools.find((p) => p.thin);
    const info: DevnetChainInfo = {
      network: preset.network,
      chainId: preset.chainId,
      rpcUrl: anvil.rpcUrl,
      pid: anvil.pid,
      wrapped: deployed.wrapped.address,
      // The configured DEXes: the preset's two, then the chain cases' 0.25% DEX (its fork is not).
      dexes:
        chainCases?.fee25 === undefined
          ? dexes
          : [
              ...dexes,
              {
                name: chainCases.fee25.name,
                factory: chainCases.fee25.factory,
                router: chainCases.fee25.router,
                feeBps: chainCases.fee25.feeBps,
              },
            ],
      tokens: Object.fromEntries(
        [...deployed.tokens.values()].filter((t) => t.listed).map((t) => [t.symbol, t.address]),
      ),
      unlisted: Object.fromEntries(
        [...deployed.tokens.values()].filter((t) => !t.listed).map((t) => [t.symbol, t.address]),
      ),
      thinPool: thin?.address ?? ("0x" as Address),
      washPool: flow.washTrader?.pool.address ?? ("0x" as Address),
      referencePricesUsd: Object.fromEntries(
        reference.symbols.map((symbol) => [symbol, reference.at(symbol, endTimestamp) as bigint]),
      ),
      arbitrageur,
      washTrader,
      pools: seeded.pools.map((p) => ({
        dex: dexPair[p.dex].name,
        address: p.address,
        symbols: [p.a.symbol, p.b.symbol],
        tvlUsd: p.tvlUsd,
        thin: p.thin,
        wash: p.wash,
      })),
      traders,
      deployer,
      history,
      hostile: hostile.tokens,
      chainCases,
      busy:
        busy === undefined || options.busy === undefined
          ? undefined
          : {
              mix: options.busy.mix,
              foreign: {
                factory: busy.chain.foreign.factory,
                router: busy.chain.foreign.router,
                pools: busy.chain.foreignPools.map((p) => p.address),
              },
              foreignTokens: Object.fromEntries(busy.chain.foreignTokens.map((t) => [t.symbol, t.address])),
              farm: busy.chain.farm,
              aggregator: busy.chain.aggregator,
              summary: busy.summary,
            },
      timings: { anvilMs, setupMs, historyMs: history.ms },
    };
    return {
      info,
      market,
      flow,
      writer,
      anvil,
      startLiveTrading: (intervalMs, liveLog) =>
        startLiveTrading(writer, {
          generator: createTradeGenerator(
            market,
            traders,
            createPrng(mixSeed(options.seed, preset.chainId, 3)),
          ),
          encoder,
          prng: createPrng(mixSeed(options.seed, preset.chainId, 4)),
          intervalMs,
          traders,
          flow,
          ...(caseSimulation === undefined ? {} : { afterBlock: (t: number) => caseSimulation.live(t) }),
          ...(liveLog === undefined ? {} : { log: liveLog }),
        }),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** Checks every offline-computed pair address against the factories. */
async function assertPairs(
  writer: ChainWriter,
  pools: DevnetMarket["pools"],
  dexes: readonly [DevnetDex, DevnetDex],
): Promise<void> {
  const onChain = await Promise.all(
    pools.map((pool) =>
      writer.client.readContract({
        address: dexes[pool.dex].factory,
        abi: uniswapV2FactoryAbi,
        functionName: "getPair",
        args: [pool.a.address, pool.b.address],
      }),
    ),
  );
  pools.forEach((pool, i) => {
    if (onChain[i]?.toLowerCase() !== pool.address) {
      throw new Error(
        `devnet: pair ${pool.a.symbol}/${pool.b.symbol} is at ${onChain[i]}, expected ${pool.address}`,
      );
    }
  });
}

/** The chain cases' off-market pair of this market, as deployChainCases takes it (none: nothing). */
function offMarketPairOf(preset: DevnetPreset, market: DevnetMarket) {
  const pair = pickOffMarketPair(preset, market);
  return pair === undefined ? {} : { offMarketPair: pair };
}

/** Derives independent 32-bit seeds per network and purpose from the devnet seed. */
function mixSeed(seed: number, chainId: number, purpose: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ chainId, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (purpose + 0x27d4eb2f), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 15)) >>> 0;
}
