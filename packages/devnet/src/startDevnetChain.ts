import { type Address, type Hash, toHex } from "viem";
import { type ChainWriter, createChainWriter } from "./anvil/createChainWriter.js";
import { type Anvil, type StartAnvilOptions, startAnvil } from "./anvil/startAnvil.js";
import type { BusyHistorySummary } from "./cases/busyBlockTypes.js";
import type { ChainCasesInfo } from "./cases/createChainCaseSimulation.js";
import type { HostileTokenAddresses } from "./cases/deployHostileTokens.js";
import { createPrng } from "./createPrng.js";
import type {
  BusyChainContracts,
  ChainCaseContracts,
  CompiledContracts,
  V3Contracts,
} from "./deploy/loadDevnetContracts.js";
import { type DeployedMarket, deployMarket } from "./deployMarket.js";
import type { DevnetDex, DevnetMarket, DevnetNetworkName } from "./devnetTypes.js";
import { createMarketFlow, type MarketFlow } from "./market/createMarketFlow.js";
import { createReferencePrices, type ReferencePrices } from "./market/createReferencePrices.js";
import { createTradeEncoder, type TradeEncoder } from "./market/createTradeEncoder.js";
import { createTradeGenerator, type TradeGenerator } from "./market/createTradeGenerator.js";
import type { HistorySummary } from "./market/simulateHistory.js";
import { type LiveTrading, startLiveTrading } from "./market/startLiveTrading.js";
import { mixSeed } from "./mixSeed.js";
import type { DevnetPreset } from "./presets/devnetPresets.js";
import type { BlockMix } from "./presets/devnetProfiles.js";
import { type ChainHistory, simulateChainHistory } from "./simulateChainHistory.js";
import { parseUsd } from "./usdToUnits.js";
import { buildV3Info, type DevnetV3Info, type StartedV3Market, startV3Market } from "./v3/startV3Market.js";

/** A pool of a devnet chain, as plain data. */
interface DevnetPoolInfo {
  dex: string;
  address: Address;
  symbols: [string, string];
  tvlUsd: bigint;
  thin: boolean;
  /** The tiny pool of an unlisted token the wash trader churns. */
  wash: boolean;
}

/** What a BSC-shaped chain has and did besides the market (all addresses lowercase). */
interface BusyChainInfo {
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
  network: DevnetNetworkName;
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
  /** The concentrated-liquidity DEX (undefined unless asked for). */
  v3: DevnetV3Info | undefined;
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
  /** How its anvil was started: a chain loaded from a saved state needs the same accounts. */
  anvilOptions: StartAnvilOptions;
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
  /**
   * The V3 contracts: when given, the network's V3 DEX is deployed beside the V2 ones and traded
   * in the spread-out history (not in the BSC-shaped one) and live.
   */
  v3?: () => Promise<V3Contracts>;
  /** Share of the traders' trades also sent through the V3 pools (see createV3Flow). */
  v3Share?: number;
  /** Where anvil writes the chain's whole state when stopped (see StartAnvilOptions). */
  dumpStatePath?: string;
  log?: (message: string) => void;
}

/** The unlocked anvil accounts of a chain, by role. */
interface ChainAccounts {
  deployer: Address;
  traders: Address[];
  arbitrageur: Address;
  washTrader: Address;
}

const DAY = 86_400;
// Every trader holds tens of times more native coin than of each token (deployMarket): plenty for the history.
const TRADER_NATIVE_USD = parseUsd("50000000");

/** Starts anvil for one network, deploys tokens and two DEXes, seeds pools and mines the history. */
export async function startDevnetChain(options: StartDevnetChainOptions): Promise<DevnetChainHandle> {
  const { preset } = options;
  const log = (message: string) => options.log?.(`[${preset.network}] ${message}`);
  const endTimestamp = options.endTimestamp ?? Math.floor(Date.now() / 1000);
  const genesis = endTimestamp - Math.ceil(options.days * DAY) - 3600;
  const nativePrice = parseUsd(preset.native.priceUsd);

  let started = performance.now();
  const anvilOptions: StartAnvilOptions = {
    chainId: preset.chainId,
    // The deployer, the traders, the arbitrageur and the wash trader.
    accounts: options.traders + 3,
    balance: TRADER_NATIVE_USD / nativePrice + 1n,
    mnemonicSeed: mixSeed(options.seed, preset.chainId, 0),
    genesisTimestamp: genesis,
    ...(options.dumpStatePath === undefined ? {} : { dumpStatePath: options.dumpStatePath }),
  };
  const anvil = await startAnvil(anvilOptions);
  const anvilMs = Math.round(performance.now() - started);
  try {
    started = performance.now();
    const writer = createChainWriter(anvil.rpcUrl);
    const accounts = await assignAccounts(writer, options.traders);
    const { deployer, traders, arbitrageur, washTrader } = accounts;

    // The pools open at the reference prices of the history's start; the walk ends at the preset's.
    const reference = createReferencePrices(preset, createPrng(mixSeed(options.seed, preset.chainId, 5)), {
      fromTimestamp: genesis,
      toTimestamp: endTimestamp,
    });
    const bytecode = await options.bytecode();
    const deployed = await deployMarket(writer, {
      preset,
      bytecode,
      artifacts: options.artifacts,
      deployer,
      traders,
      arbitrageur,
      washTrader,
      reference,
      genesis,
    });
    const { market } = deployed;
    const setupMs = Math.round(performance.now() - started);
    log(
      `deployed ${market.tokens.size} tokens, 2 DEXes, ${market.pools.length} pools, funded ${traders.length} traders in ${setupMs} ms`,
    );

    const v3 = await startV3(writer, options, { market, accounts, reference, at: genesis + 300 }, log);

    const { generator, encoder, flow } = createTraders(writer, options, market, accounts, reference);
    const { history, busy, caseSimulation } = await simulateChainHistory(writer, {
      preset,
      seed: options.seed,
      days: options.days,
      trades: options.trades,
      tradesPerBlock: options.tradesPerBlock,
      endTimestamp,
      market,
      traders,
      generator,
      encoder,
      flow,
      reference,
      devnetToken: bytecode.DevnetToken,
      artifacts: options.artifacts,
      chainCaseBytecode: options.chainCaseBytecode,
      busy: options.busy,
      ...(v3 === undefined ? {} : { v3: v3.flow, v3Dex: v3.v3 }),
      log,
    });
    const chainCases = await caseSimulation?.finish();
    logHistory(log, history, chainCases);

    const info = buildChainInfo(options, {
      anvil,
      deployed,
      flow,
      reference,
      endTimestamp,
      accounts,
      history,
      chainCases,
      busy,
      v3,
      timings: { anvilMs, setupMs, historyMs: history.ms },
    });
    return {
      info,
      market,
      flow,
      writer,
      anvil,
      anvilOptions,
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
          ...(v3 === undefined ? {} : { v3: v3.flow }),
          ...(liveLog === undefined ? {} : { log: liveLog }),
        }),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** Deploys the network's V3 DEX when asked for (undefined when not). */
async function startV3(
  writer: ChainWriter,
  options: StartDevnetChainOptions,
  parts: { market: DevnetMarket; accounts: ChainAccounts; reference: ReferencePrices; at: number },
  log: (message: string) => void,
): Promise<StartedV3Market | undefined> {
  if (options.v3 === undefined) return undefined;
  const started = performance.now();
  const v3 = await startV3Market(writer, {
    market: parts.market,
    contracts: await options.v3(),
    deployer: parts.accounts.deployer,
    traders: parts.accounts.traders,
    arbitrageur: parts.accounts.arbitrageur,
    reference: parts.reference,
    seed: options.seed,
    at: parts.at,
    ...(options.v3Share === undefined ? {} : { share: options.v3Share }),
  });
  log(
    `deployed ${v3.v3.spec.name}: ${v3.v3.pools.length} pools, ${v3.v3.positions.length} positions in ${Math.round(performance.now() - started)} ms`,
  );
  return v3;
}

/** The history's trade generator and encoder, and the arbitrage and wash trading that follow its blocks. */
function createTraders(
  writer: ChainWriter,
  options: StartDevnetChainOptions,
  market: DevnetMarket,
  accounts: ChainAccounts,
  reference: ReferencePrices,
): { generator: TradeGenerator; encoder: TradeEncoder; flow: MarketFlow } {
  const { preset } = options;
  const { traders, arbitrageur, washTrader } = accounts;
  const generator = createTradeGenerator(
    market,
    traders,
    createPrng(mixSeed(options.seed, preset.chainId, 1)),
  );
  // A mix that approves up front has every trader approve both routers before the history.
  const encoder = createTradeEncoder(
    market,
    options.busy?.mix.preapprove === true
      ? { traders, routers: market.dexes.map((d) => d.router) }
      : undefined,
  );
  const flow = createMarketFlow(writer.client, market, {
    reference,
    arbitrageur,
    washTrader,
    prng: createPrng(mixSeed(options.seed, preset.chainId, 6)),
  });
  return { generator, encoder, flow };
}

/** The unlocked accounts by role; the deployer, the arbitrageur and the wash trader made rich. */
async function assignAccounts(writer: ChainWriter, traderCount: number): Promise<ChainAccounts> {
  const accounts = (await writer.client.request({ method: "eth_accounts", params: [] })).map(
    (a) => a.toLowerCase() as Address,
  );
  const deployer = accounts[0] as Address;
  const traders = accounts.slice(1, 1 + traderCount);
  const [arbitrageur, washTrader] = accounts.slice(1 + traderCount) as [Address, Address];
  // The deployer seeds every pool's native side: give it far more than any trader.
  for (const rich of [deployer, arbitrageur, washTrader])
    await writer.client.request({ method: "anvil_setBalance", params: [rich, toHex(10n ** 36n)] });
  return { deployer, traders, arbitrageur, washTrader };
}

/** Logs what the history and the chain cases mined. */
function logHistory(
  log: (message: string) => void,
  history: HistorySummary,
  chainCases: ChainCasesInfo | undefined,
): void {
  if (chainCases !== undefined) {
    log(
      `chain cases: ${Object.values(chainCases.txs).flat().length} transactions (${chainCases.swapLogs} swaps) in ${chainCases.blocks} blocks between the history's`,
    );
  }
  log(
    `history: ${history.trades} trades, ${history.arbitrageTrades} arbitrage, ${history.washTrades} wash (${history.swapLogs} swaps) in ${history.blocks} blocks, ${history.ms} ms`,
  );
}

/** What a chain's parts add up to, as plain data. */
function buildChainInfo(
  options: StartDevnetChainOptions,
  parts: {
    anvil: Anvil;
    deployed: DeployedMarket;
    flow: MarketFlow;
    reference: ReferencePrices;
    endTimestamp: number;
    accounts: ChainAccounts;
    history: HistorySummary;
    chainCases: ChainCasesInfo | undefined;
    busy: ChainHistory["busy"];
    v3: StartedV3Market | undefined;
    timings: DevnetChainInfo["timings"];
  },
): DevnetChainInfo {
  const { preset } = options;
  const { anvil, deployed, flow, reference, endTimestamp, history, chainCases, busy } = parts;
  const { market } = deployed;
  const { traders, deployer, arbitrageur, washTrader } = parts.accounts;
  const thin = market.pools.find((p) => p.thin);
  return {
    network: preset.network,
    chainId: preset.chainId,
    rpcUrl: anvil.rpcUrl,
    pid: anvil.pid,
    wrapped: market.wrapped.address,
    // The configured DEXes: the preset's two, then the chain cases' 0.25% DEX (its fork is not).
    dexes:
      chainCases?.fee25 === undefined
        ? deployed.dexes
        : [
            ...deployed.dexes,
            {
              name: chainCases.fee25.name,
              factory: chainCases.fee25.factory,
              router: chainCases.fee25.router,
              feeBps: chainCases.fee25.feeBps,
            },
          ],
    tokens: Object.fromEntries(
      [...market.tokens.values()].filter((t) => t.listed).map((t) => [t.symbol, t.address]),
    ),
    unlisted: Object.fromEntries(
      [...market.tokens.values()].filter((t) => !t.listed).map((t) => [t.symbol, t.address]),
    ),
    thinPool: thin?.address ?? ("0x" as Address),
    washPool: flow.washTrader?.pool.address ?? ("0x" as Address),
    referencePricesUsd: Object.fromEntries(
      reference.symbols.map((symbol) => [symbol, reference.at(symbol, endTimestamp) as bigint]),
    ),
    arbitrageur,
    washTrader,
    pools: market.pools.map((p) => ({
      dex: market.dexes[p.dex].name,
      address: p.address,
      symbols: [p.a.symbol, p.b.symbol],
      tvlUsd: p.tvlUsd,
      thin: p.thin,
      wash: p.wash,
    })),
    traders,
    deployer,
    history,
    hostile: deployed.hostile,
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
    v3: parts.v3 === undefined ? undefined : buildV3Info(parts.v3),
    timings: parts.timings,
  };
}
