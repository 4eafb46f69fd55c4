import { resolve } from "node:path";
import type { StartAnvilOptions } from "./anvil/startAnvil.js";
import { buildNetworkConfig } from "./buildNetworkConfig.js";
import { loadDevnetContracts } from "./deploy/loadDevnetContracts.js";
import { DEVNET_NETWORKS, type DevnetNetworkConfig, type DevnetNetworkName } from "./devnetTypes.js";
import type { LiveTrading } from "./market/startLiveTrading.js";
import { buildDensePreset } from "./presets/buildDensePreset.js";
import { DEVNET_PRESETS, type DevnetPreset } from "./presets/devnetPresets.js";
import {
  BLOCK_MIXES,
  type BlockMix,
  type BlockMixName,
  BUSY_BLOCK_SECONDS,
  BUSY_BLOCKS,
  DEVNET_PROFILE_DEFAULTS,
  type DevnetPools,
  type DevnetProfile,
} from "./presets/devnetProfiles.js";
import { type DevnetChainHandle, type DevnetChainInfo, startDevnetChain } from "./startDevnetChain.js";
import { buildV3DexConfig } from "./v3/startV3Market.js";
import { writeManifest } from "./writeManifest.js";

/** Options of the demo devnet. */
export interface StartDevnetOptions {
  /**
   * "demo" (default): the defaults below, on every pool of the preset. "dense": one day of
   * 100,000 trades by 250 traders, about 150 a block, on each listed token's main pairs only.
   * "bsc-shaped": full blocks 3 s apart as `blockMix` says, mostly traffic that is no trade on a
   * configured DEX (see DEVNET_PROFILE_DEFAULTS, BLOCK_MIXES); the options below override the
   * profile's defaults.
   */
  profile?: DevnetProfile;
  /**
   * bsc-shaped only: what each block holds, "bsc" (default; ~165 transactions, 20 of them trades
   * on the configured DEXes) or "issue17" (exactly 20 trades + 20 foreign-fork swaps + 100 native
   * transfers), or a mix of one's own.
   */
  blockMix?: BlockMixName | BlockMix;
  /**
   * bsc-shaped only: history blocks (default 500 for "bsc", 100 for "issue17"; or
   * swapsPerNetwork / trades a block when swapsPerNetwork is given). `days` follows from them.
   */
  blocks?: number;
  /** Default: all three (bsc 56, eth 1, polygon 137). */
  networks?: DevnetNetworkName[];
  /** Seed of everything random: the same seed gives the same chains (default 1). */
  seed?: number;
  /** Days of history ending now, fractions allowed (default 7). */
  days?: number;
  /** Swap transactions in each network's history (default 3,000). */
  swapsPerNetwork?: number;
  /** Trader accounts per network (default 60). */
  traders?: number;
  /** Average trades per history block: fewer, fuller blocks build faster (default 8). */
  swapsPerBlock?: number;
  /** Which pools to seed and trade (default "all"; the dense profile's "main"); "one" makes a one-pair chain. */
  pools?: DevnetPools;
  /** Average milliseconds between live blocks; 0 = no live trading (default 3,000). */
  liveIntervalMs?: number;
  /** Where the manifest goes (default ".data/devnet"). */
  dataDir?: string;
  /**
   * Put the real-chain cases on every chain during the history: an unconfigured fork, direct pair
   * swaps, an aggregator, a fee-on-transfer token, pools created mid-week, a 0.25% DEX (bsc) and
   * unpriced tokens (default: true for the demo profile, false for dense).
   */
  chainCases?: boolean;
  /**
   * Deploy each network's concentrated-liquidity DEX (PancakeSwap V3 on bsc, Uniswap V3 on eth
   * and polygon) and trade it in the history and live (default: true when every pool is seeded
   * and the history is the spread-out one, i.e. the demo profile).
   */
  v3?: boolean;
  /** Share of the traders' trades also sent through the V3 pools, per V2 trade (default 0.15). */
  v3Share?: number;
  /**
   * When given, each chain's anvil writes its whole state, every block's included, to
   * `<dumpStateDir>/<network>.json` when stopped: `startAnvil({ loadStatePath })` starts it again.
   */
  dumpStateDir?: string;
  log?: (message: string) => void;
}

/** A running devnet. */
export interface Devnet {
  /** What the indexer needs per network; also written to the manifest. */
  networks: DevnetNetworkConfig[];
  /** Absolute path of manifest.json: the networks in the configuration-file format. */
  manifestPath: string;
  chains: DevnetChainInfo[];
  /** How each chain's anvil was started (same order as `chains`): a saved state reloads with these. */
  anvils: StartAnvilOptions[];
  timings: { totalMs: number };
  /** Starts live trading on every chain (no-op while it runs), e.g. after `liveIntervalMs: 0`. */
  startLive(intervalMs: number): void;
  /** Stops live trading on every chain (the chains keep running). */
  stopLive(): Promise<void>;
  /** Stops live trading and every anvil; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Starts one anvil chain per network in parallel, deploys tokens and two Uniswap-V2 DEXes on
 * each, seeds liquidity at realistic prices, mines `days` of seeded trading history ending now,
 * writes the manifest, and keeps trading live if asked.
 */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const started = performance.now();
  const profile = DEVNET_PROFILE_DEFAULTS[options.profile ?? "demo"];
  if (profile === undefined) throw new Error(`startDevnet: unknown profile ${String(options.profile)}`);
  const networks = options.networks ?? [...DEVNET_NETWORKS];
  const seed = options.seed ?? 1;
  const busy = options.profile === "bsc-shaped" ? busyOptions(options) : undefined;
  const days = busy?.days ?? options.days ?? profile.days;
  const trades = options.swapsPerNetwork ?? profile.swapsPerNetwork;
  const traders = options.traders ?? profile.traders;
  const swapsPerBlock = options.swapsPerBlock ?? profile.swapsPerBlock;
  const pools = options.pools ?? profile.pools;
  const presetOf = (network: DevnetNetworkName): DevnetPreset =>
    pools === "all" ? DEVNET_PRESETS[network] : buildDensePreset(DEVNET_PRESETS[network], pools);
  const liveIntervalMs = options.liveIntervalMs ?? 3000;
  const dataDir = resolve(options.dataDir ?? ".data/devnet");
  const log = options.log ?? (() => {});
  if (networks.length === 0) throw new Error("startDevnet: no networks");
  if (!(days > 0)) throw new Error(`startDevnet: days must be positive, got ${days}`);
  if (!Number.isInteger(trades) || trades < 1) throw new Error(`startDevnet: swapsPerNetwork must be >= 1`);
  if (!Number.isInteger(traders) || traders < 1) throw new Error(`startDevnet: traders must be >= 1`);
  if (!(swapsPerBlock >= 1)) throw new Error(`startDevnet: swapsPerBlock must be >= 1, got ${swapsPerBlock}`);

  // Committed artifacts (`npm run contracts`): no compiler at run time.
  const contracts = loadDevnetContracts();
  const bytecode = async () => contracts.tokens;
  const chainCaseBytecode = async () => contracts.chainCases;
  const withChainCases = options.chainCases ?? (options.profile ?? "demo") === "demo";
  const busyContracts = async () => contracts.busy;
  const artifacts = contracts.uniswap;
  // The V3 DEX joins the demo's market (every pool, spread-out history), not the scale profiles.
  const v3Contracts = async () => contracts.v3;
  const withV3 = options.v3 ?? (pools === "all" && busy === undefined);
  const endTimestamp = Math.floor(Date.now() / 1000);
  const settled = await Promise.allSettled(
    networks.map((network) =>
      startDevnetChain({
        preset: presetOf(network),
        seed,
        days,
        trades,
        traders,
        tradesPerBlock: swapsPerBlock,
        endTimestamp,
        bytecode,
        ...(withChainCases ? { chainCaseBytecode } : {}),
        ...(busy === undefined
          ? {}
          : { busy: { mix: busy.mix, blocks: busy.blocks, contracts: busyContracts } }),
        artifacts,
        ...(withV3 ? { v3: v3Contracts } : {}),
        ...(options.v3Share === undefined ? {} : { v3Share: options.v3Share }),
        ...(options.dumpStateDir === undefined
          ? {}
          : { dumpStatePath: resolve(options.dumpStateDir, `${network}.json`) }),
        log,
      }),
    ),
  );
  const handles: DevnetChainHandle[] = [];
  for (const result of settled) if (result.status === "fulfilled") handles.push(result.value);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed !== undefined) {
    await Promise.all(handles.map((h) => h.anvil.stop()));
    throw failed.reason;
  }

  const configs = handles.map((h) => buildChainConfig(h, presetOf(h.info.network), days, endTimestamp));
  const manifestPath = resolve(dataDir, "manifest.json");
  const live: LiveTrading[] = [];
  const stopLive = async () => {
    await Promise.all(live.splice(0).map((l) => l.stop()));
  };
  const stop = async () => {
    await stopLive();
    await Promise.all(handles.map((h) => h.anvil.stop()));
  };
  try {
    await writeManifest(manifestPath, configs);
  } catch (error) {
    await stop();
    throw error;
  }
  const startLive = (intervalMs: number) => {
    if (live.length > 0 || !(intervalMs > 0)) return;
    for (const h of handles)
      live.push(h.startLiveTrading(intervalMs, (m) => log(`[${h.info.network}] ${m}`)));
  };
  startLive(liveIntervalMs);
  return {
    networks: configs,
    manifestPath,
    chains: handles.map((h) => h.info),
    anvils: handles.map((h) => h.anvilOptions),
    timings: { totalMs: Math.round(performance.now() - started) },
    startLive,
    stopLive,
    stop,
  };
}

/** One chain's network config: the preset's DEXes, the chain cases' 0.25% DEX and its V3 DEX. */
function buildChainConfig(
  h: DevnetChainHandle,
  preset: DevnetPreset,
  days: number,
  endTimestamp: number,
): DevnetNetworkConfig {
  const config = buildNetworkConfig(h.market, preset, h.info.rpcUrl, {
    // The config counts whole days: a fractional history fits in the next one up.
    windowDays: Math.ceil(days),
    listTimestamp: endTimestamp,
  });
  // The 0.25% DEX of the chain cases is configured; their Uniswap fork deliberately is not.
  const fee25 = h.info.chainCases?.fee25;
  const dexes = [
    ...config.dexes,
    ...(fee25 === undefined
      ? []
      : [
          {
            name: fee25.name,
            kind: "uniswap-v2" as const,
            factory: fee25.factory,
            router: fee25.router,
            feeBps: fee25.feeBps,
          },
        ]),
    ...(h.info.v3 === undefined ? [] : [buildV3DexConfig(h.info.v3)]),
  ];
  return { ...config, dexes };
}

/** The block mix, block count and covered days of a bsc-shaped devnet from startDevnet's options. */
function busyOptions(options: StartDevnetOptions): { mix: BlockMix; blocks: number; days: number } {
  const named = typeof options.blockMix === "string" || options.blockMix === undefined;
  const base =
    typeof options.blockMix === "object" ? options.blockMix : BLOCK_MIXES[options.blockMix ?? "bsc"];
  if (base === undefined) throw new Error(`startDevnet: unknown block mix ${String(options.blockMix)}`);
  const mix = options.swapsPerBlock === undefined ? base : { ...base, trades: options.swapsPerBlock };
  const blocks =
    options.blocks ??
    (options.swapsPerNetwork !== undefined
      ? Math.ceil(options.swapsPerNetwork / Math.max(1, mix.trades))
      : named
        ? BUSY_BLOCKS[(options.blockMix as BlockMixName | undefined) ?? "bsc"]
        : BUSY_BLOCKS.bsc);
  if (!Number.isInteger(blocks) || blocks < 1)
    throw new Error(`startDevnet: blocks must be >= 1, got ${blocks}`);
  return { mix, blocks, days: (blocks * BUSY_BLOCK_SECONDS) / 86_400 };
}
