import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import { BUSY_BLOCKS } from "@swapgraph/devnet/presets/devnetProfiles.js";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { writeManifest } from "@swapgraph/devnet/writeManifest.js";
import { createPublicClient, http } from "viem";
import { pairCreatedEventAbi, swapEventAbi } from "../src/chain/abis.js";
import {
  countPonderSwaps,
  countPonderTables,
  ensurePonderInstalled,
  killPonderProcesses,
  PONDER_VERSION,
  type PonderProcess,
  ponderIndexedBlock,
  startPonderProcess,
  writePonderApp,
} from "./ponderApp.js";
import { buildPonderRows, type PonderRow, type PonderSide, type Side } from "./ponderRows.js";
import {
  killSwapgraphProcesses,
  type SwapgraphProcess,
  startSwapgraphProcess,
} from "./startSwapgraphProcess.js";

/** The chains the side-by-side runs on: issue 17's BSC-like mix, the one-pair week, the dense day. */
export type PonderChainName = "issue17" | "onepair" | "dense";
const CHAIN_NAMES: readonly PonderChainName[] = ["issue17", "onepair", "dense"];

/** Sizes of the chains (see ponderSizesFromEnv for the defaults). */
export interface PonderSizes {
  /** Blocks of the issue-17 mix (the issue measured 100). */
  issue17Blocks: number;
  /** Swaps of the one-pair 7-day chain, 50 a block (the issue measured 20,000). */
  onePairSwaps: number;
  /** Swaps of the dense day, 50 a block on the main pairs (the issue measured 100,000). */
  denseSwaps: number;
}

/** Options of the side-by-side benchmark. */
export interface BenchPonderOptions {
  chains: PonderChainName[];
  sizes: PonderSizes;
  /** Ponder's maxRequestsPerSecond (undefined: its default, 50). */
  ponderMaxRequestsPerSecond?: number | undefined;
  /** Rounds per chain, alternating which side goes first (BENCH_PONDER_ROUNDS, default 3). */
  rounds: number;
  log?: (message: string) => void;
}

/**
 * `npm run bench` (Ponder part, BENCH_PONDER=1 or BENCH_ONLY=ponder): on each chain, one devnet
 * and one provider emulator in front of it; `rounds` rounds, each running swapgraph (child
 * process, SQLite) and the same-work Ponder (child process, PGlite; factory pattern over the
 * configured V2 factories' PairCreated; per Swap a row with event.transaction.from as the trader
 * and an upsert of the pair's UTC-day row, per Sync an upsert of the pair's reserves) one after
 * the other, alternating which goes first, each from a fresh data dir with the emulator's counts
 * reset: process start to the first /ready 200 (and Ponder on to every Swap up to the head
 * stored), with the emulator's calls, compute units, bytes and node-busy time of that span. Prints
 * each chain's medians, spreads and ratios against the issue's aims; returns the rows.
 */
export async function benchPonder(options: BenchPonderOptions): Promise<PonderRow[]> {
  const log = options.log ?? ((message: string) => console.log(message));
  let installDir: string;
  try {
    installDir = await ensurePonderInstalled(log);
  } catch (error) {
    process.exitCode = 1;
    console.log(`Ponder side by side: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
  const onSignal = (signal: NodeJS.Signals) => {
    killSwapgraphProcesses();
    killPonderProcesses();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    // The exit hook of startAnvil kills the anvils.
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  console.log(
    `Ponder ${PONDER_VERSION} (PGlite) and swapgraph (SQLite), each a child process indexing the same devnet through the provider emulator, ${options.rounds} round(s) alternating which goes first, each from a fresh data dir with the emulator reset: process start to the first /ready 200 and to every Swap up to the head stored (Ponder's /ready comes at its finalized block, 30 blocks behind the head), the RPC work until then (compute units at the emulator's table) and the wall time the node was answering (at least one request at it); median (min-max) of the rounds, the ratio of the medians, the issue's aims`,
  );
  const rows: PonderRow[] = [];
  try {
    for (const name of options.chains) {
      const spec = chainSpec(name, options.sizes);
      try {
        const chainRows = await sideBySide(spec, installDir, options, log);
        console.table(chainRows);
        rows.push(...chainRows);
      } catch (error) {
        process.exitCode = 1;
        console.log(
          `Ponder side by side, ${spec.title}: FAILED: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return rows;
}

// Temp dirs of the chain in progress, removed on SIGINT/SIGTERM too.
const tempDirs = new Set<string>();

interface ChainSpec {
  name: PonderChainName;
  title: string;
  devnet: StartDevnetOptions;
  /** Expected work, to size timeouts: swaps (or transactions) of the history. */
  weight: number;
  /** Issue 28's aim for Ponder / swapgraph of the start-to-ready times ("at least Nx"), if any. */
  aimRatio?: number;
}

function chainSpec(name: PonderChainName, sizes: PonderSizes): ChainSpec {
  switch (name) {
    case "issue17":
      return {
        name,
        title: `issue 17's mix, ${sizes.issue17Blocks} blocks x 140 transactions`,
        devnet: { profile: "bsc-shaped", blockMix: "issue17", blocks: sizes.issue17Blocks },
        weight: sizes.issue17Blocks * 140,
      };
    case "onepair":
      return {
        name,
        title: `one pair, ${sizes.onePairSwaps.toLocaleString("en-US")} swaps in 7 days, 50 a block`,
        devnet: {
          profile: "dense",
          pools: "one",
          swapsPerNetwork: sizes.onePairSwaps,
          swapsPerBlock: 50,
          days: 7,
        },
        weight: sizes.onePairSwaps,
        // Issue 28: at least 8x on the 20k one-pair chain.
        aimRatio: 8,
      };
    case "dense":
      return {
        name,
        title: `dense day, ${sizes.denseSwaps.toLocaleString("en-US")} swaps in 23 h, 50 a block`,
        devnet: { profile: "dense", swapsPerNetwork: sizes.denseSwaps, swapsPerBlock: 50, days: 23 / 24 },
        weight: sizes.denseSwaps,
        // Issue 28: at least 4x on the dense 100k day.
        aimRatio: 4,
      };
    default: {
      const never: never = name;
      throw new Error(`unknown chain ${String(never)}`);
    }
  }
}

async function sideBySide(
  spec: ChainSpec,
  installDir: string,
  options: BenchPonderOptions,
  log: (message: string) => void,
): Promise<PonderRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-ponder-"));
  tempDirs.add(dir);
  let devnet: Devnet | undefined;
  let emulator: ProviderEmulator | undefined;
  try {
    log(`ponder ${spec.name}: building the devnet (${spec.title})`);
    const built = performance.now();
    devnet = await startDevnet({
      networks: ["bsc"],
      liveIntervalMs: 0,
      dataDir: join(dir, "devnet"),
      ...spec.devnet,
    });
    const buildMs = performance.now() - built;
    const chain = devnet.chains[0]!;
    const network = devnet.networks[0]!;
    emulator = await createProviderEmulator({ upstream: chain.rpcUrl });
    const timeoutMs = 120_000 + spec.weight * 10;
    const configPath = join(dir, "manifest.json");
    await writeManifest(configPath, [
      { ...network, rpcUrls: [emulator.url], startBlock: chain.history.fromBlock },
    ]);
    const factories = network.dexes.filter((dex) => dex.kind === "uniswap-v2").map((dex) => dex.factory);
    const expected = await countSwapLogs(chain.rpcUrl, factories);

    const swapgraphRuns: Side[] = [];
    const ponderRuns: PonderSide[] = [];
    const runs = {
      swapgraph: async (round: number) => {
        const dataDir = join(dir, `swapgraph-${round}`);
        mkdirSync(dataDir);
        swapgraphRuns.push(await runSwapgraph(configPath, dataDir, emulator!, timeoutMs));
        rmSync(dataDir, { recursive: true, force: true });
      },
      ponder: async (round: number) => {
        // A new app directory each round: its .ponder/ holds PGlite's data.
        const appDir = join(dir, `ponder-${round}`);
        writePonderApp(appDir, installDir, {
          chainId: network.chainId,
          rpcUrl: emulator!.url,
          factories,
          // The factories' deployment must be in range for Ponder to find their pairs.
          startBlock: 0,
          maxRequestsPerSecond: options.ponderMaxRequestsPerSecond,
        });
        ponderRuns.push(await runPonder(appDir, emulator!, expected, timeoutMs));
        rmSync(appDir, { recursive: true, force: true });
      },
    };
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? (["swapgraph", "ponder"] as const) : (["ponder", "swapgraph"] as const);
      for (const side of order) {
        emulator.reset();
        log(`ponder ${spec.name}: round ${round + 1}/${options.rounds}, ${side} start to /ready`);
        await runs[side](round);
      }
    }

    const history = chain.history;
    const chainLabel = `${spec.name}: ${history.blocks} blocks, ${history.transactions} txs, ${history.swapLogs} Swap logs (built in ${(buildMs / 1000).toFixed(0)} s)`;
    return buildPonderRows(chainLabel, swapgraphRuns, ponderRuns, expected.swaps, spec.aimRatio);
  } finally {
    await emulator?.close();
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
    tempDirs.delete(dir);
  }
}

async function runSwapgraph(
  configPath: string,
  dataDir: string,
  emulator: ProviderEmulator,
  timeoutMs: number,
): Promise<Side> {
  let child: SwapgraphProcess | undefined;
  try {
    child = await startSwapgraphProcess({ configPath, dataDir });
    const readyAt = await child.waitForReady(timeoutMs).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${child?.tail() ?? ""}`);
    });
    const usage = emulator.usage();
    const done = child.logs.findLast(({ line }) => line.msg === "backfill reached the head");
    return {
      readyMs: readyAt - child.spawnedAt,
      usage,
      indexed: done === undefined ? "n/a" : `${String(done.line.trades)} trades`,
    };
  } finally {
    await child?.stop();
  }
}

/**
 * Ponder from process start to /ready (its historical sync reached the finalized block, 30 blocks
 * behind the head on this chain id), then on to every Swap up to the head stored (its realtime
 * sync does the last blocks): the row count polled every 250 ms through its GraphQL API. Should
 * Ponder reach the head with rows missing (seen once: a whole block lost), the count has
 * `STALL_MS` to settle, then the shortfall is reported rather than waited on.
 */
async function runPonder(
  appDir: string,
  emulator: ProviderEmulator,
  chain: ChainSwaps,
  timeoutMs: number,
): Promise<PonderSide> {
  let child: PonderProcess | undefined;
  const failed = (error: unknown): never => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${child?.tail() ?? ""}`);
  };
  try {
    child = await startPonderProcess(appDir);
    const { baseUrl } = child;
    const readyAt = await child.waitForReady(timeoutMs).catch(failed);
    const usage = emulator.usage();
    const deadline = child.spawnedAt + timeoutMs;
    let rows = await countPonderSwaps(baseUrl).catch(failed);
    let changedAt = performance.now();
    while (rows < chain.swaps) {
      if (performance.now() > deadline)
        failed(new Error(`ponder stored ${rows} of ${chain.swaps} swaps in time`));
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = await countPonderSwaps(baseUrl).catch(failed);
      if (now !== rows) changedAt = performance.now();
      rows = now;
      const atHead = ((await ponderIndexedBlock(baseUrl).catch(failed)) ?? -1) >= chain.head;
      if (atHead && performance.now() - changedAt > STALL_MS) break;
    }
    const complete = rows >= chain.swaps;
    const tables = await countPonderTables(baseUrl).catch(failed);
    const stored = `${tables.days} pair-day rows (counts sum ${tables.daySwaps}), ${tables.reserves} reserve rows`;
    return {
      readyMs: readyAt - child.spawnedAt,
      usage,
      completeMs: complete ? performance.now() - child.spawnedAt : Number.NaN,
      completeUsage: emulator.usage(),
      indexed: complete
        ? `${rows} swap rows, ${stored}`
        : `${rows} swap rows, ${chain.swaps - rows} MISSING at the head, ${stored}`,
    };
  } finally {
    await child?.stop();
  }
}

// How long Ponder's row count may stand still at the head before the missing rows are reported.
const STALL_MS = 5_000;

/** The chain's head and its Swap logs up to it of the configured factories' pairs. */
interface ChainSwaps {
  head: number;
  swaps: number;
}

/**
 * Swap logs up to the head of every pair the factories created, read from the node directly
 * (not through the emulator): what Ponder must have stored when it has caught up.
 */
async function countSwapLogs(rpcUrl: string, factories: readonly `0x${string}`[]): Promise<ChainSwaps> {
  const client = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: 120_000, maxResponseBodySize: 512 * 1024 * 1024 }),
  });
  const head = await client.getBlockNumber();
  const created = await client.getLogs({
    address: [...factories],
    event: pairCreatedEventAbi,
    fromBlock: 0n,
    toBlock: head,
  });
  // The pair is the first word of the data (its unnamed uint256 leaves viem's args a tuple type).
  const pairs = created.map((log) => `0x${log.data.slice(26, 66)}` as `0x${string}`);
  let swaps = 0;
  const step = 200n;
  for (let from = 0n; from <= head; from += step) {
    const to = from + step - 1n < head ? from + step - 1n : head;
    swaps += (await client.getLogs({ address: pairs, event: swapEventAbi, fromBlock: from, toBlock: to }))
      .length;
  }
  return { head: Number(head), swaps };
}

/** Chains from BENCH_PONDER_CHAINS ("issue17,onepair,dense" by default). */
export function ponderChainsFromEnv(env: NodeJS.ProcessEnv = process.env): PonderChainName[] {
  const raw = env.BENCH_PONDER_CHAINS ?? CHAIN_NAMES.join(",");
  const chains = raw.split(",").map((part) => part.trim());
  const bad = chains.find((chain) => !(CHAIN_NAMES as readonly string[]).includes(chain));
  if (bad !== undefined) throw new Error(`BENCH_PONDER_CHAINS takes ${CHAIN_NAMES.join(", ")}; got "${raw}"`);
  return chains as PonderChainName[];
}

/**
 * Sizes from BENCH_PONDER_ISSUE17_BLOCKS (default 100, issue 17's), BENCH_PONDER_ONE_PAIR_SWAPS
 * (default 20,000) and BENCH_PONDER_DENSE_SWAPS (default 100,000): issue 28's chains.
 */
export function ponderSizesFromEnv(env: NodeJS.ProcessEnv = process.env): PonderSizes {
  const positive = (key: string, fallback: number) => {
    const raw = env[key];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${key} must be a positive integer, got "${raw}"`);
    return value;
  };
  return {
    issue17Blocks: positive("BENCH_PONDER_ISSUE17_BLOCKS", BUSY_BLOCKS.issue17),
    onePairSwaps: positive("BENCH_PONDER_ONE_PAIR_SWAPS", 20_000),
    denseSwaps: positive("BENCH_PONDER_DENSE_SWAPS", 100_000),
  };
}

/** Rounds per chain from BENCH_PONDER_ROUNDS (default 3: the median of three). */
export function ponderRoundsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_PONDER_ROUNDS;
  if (raw === undefined) return 3;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_PONDER_ROUNDS must be a positive integer, got "${raw}"`);
  return value;
}

/** Ponder's maxRequestsPerSecond from BENCH_PONDER_MAX_RPS (unset: Ponder's default, 50). */
export function ponderMaxRequestsPerSecondFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.BENCH_PONDER_MAX_RPS;
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`BENCH_PONDER_MAX_RPS must be a positive integer, got "${raw}"`);
  return value;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPonder({
    chains: ponderChainsFromEnv(),
    sizes: ponderSizesFromEnv(),
    ponderMaxRequestsPerSecond: ponderMaxRequestsPerSecondFromEnv(),
    rounds: ponderRoundsFromEnv(),
  });
  process.exit(process.exitCode ?? 0);
}
