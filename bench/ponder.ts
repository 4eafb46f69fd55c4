import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import type { ProviderUsage } from "@swapgraph/devnet/emulator/createUsageMeter.js";
import { BUSY_BLOCKS } from "@swapgraph/devnet/presets/devnetProfiles.js";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { writeManifest } from "@swapgraph/devnet/writeManifest.js";
import { createPublicClient, http } from "viem";
import { pairCreatedEventAbi, swapEventAbi } from "../src/chain/abis.js";
import {
  countPonderSwaps,
  ensurePonderInstalled,
  killPonderProcesses,
  PONDER_VERSION,
  type PonderProcess,
  ponderIndexedBlock,
  startPonderProcess,
  writePonderApp,
} from "./ponderApp.js";
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
  log?: (message: string) => void;
}

/** One line of the side-by-side table. */
export interface PonderRow {
  chain: string;
  metric: string;
  swapgraph: string;
  Ponder: string;
  "Ponder / swapgraph": string;
}

/** What one indexer cost on one chain, from process start to /ready. */
interface Side {
  readyMs: number;
  usage: ProviderUsage;
  indexed: string;
}

/** Ponder's side: /ready comes at the finalized block; the rest of the head is indexed after it. */
interface PonderSide extends Side {
  /** Process start to every Swap up to the head stored, and the RPC work until then. */
  completeMs: number;
  completeUsage: ProviderUsage;
}

/**
 * `npm run bench` (Ponder part, BENCH_PONDER=1): on each chain, one devnet and one provider
 * emulator in front of it; swapgraph (child process, SQLite) then Ponder (child process, PGlite;
 * factory pattern over the configured V2 factories' PairCreated, a row per Swap with
 * event.transaction.from as the trader) each from process start to their first /ready 200 (and
 * Ponder on to every Swap up to the head stored), with the emulator's calls, compute units and
 * bytes of that span. Returns the rows it printed.
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
  const rows: PonderRow[] = [];
  try {
    for (const name of options.chains) {
      const spec = chainSpec(name, options.sizes);
      try {
        rows.push(...(await sideBySide(spec, installDir, options.ponderMaxRequestsPerSecond, log)));
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
  console.log(
    `Ponder ${PONDER_VERSION} (PGlite) and swapgraph (SQLite), each a child process indexing the same devnet through the provider emulator, one after the other (swapgraph first): process start to the first /ready 200 and to every Swap up to the head stored (Ponder's /ready comes at its finalized block, 30 blocks behind the head), and the RPC work until then (compute units at the emulator's table)`,
  );
  console.table(rows);
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
      };
    case "dense":
      return {
        name,
        title: `dense day, ${sizes.denseSwaps.toLocaleString("en-US")} swaps in 23 h, 50 a block`,
        devnet: { profile: "dense", swapsPerNetwork: sizes.denseSwaps, swapsPerBlock: 50, days: 23 / 24 },
        weight: sizes.denseSwaps,
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
  maxRequestsPerSecond: number | undefined,
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

    log(`ponder ${spec.name}: swapgraph start to /ready`);
    const configPath = join(dir, "manifest.json");
    await writeManifest(configPath, [
      { ...network, rpcUrls: [emulator.url], startBlock: chain.history.fromBlock },
    ]);
    mkdirSync(join(dir, "swapgraph"));
    const swapgraph = await runSwapgraph(configPath, join(dir, "swapgraph"), emulator, timeoutMs);

    emulator.reset();
    log(`ponder ${spec.name}: Ponder start to /ready`);
    const appDir = join(dir, "ponder");
    const factories = network.dexes.filter((dex) => dex.kind === "uniswap-v2").map((dex) => dex.factory);
    writePonderApp(appDir, installDir, {
      chainId: network.chainId,
      rpcUrl: emulator.url,
      factories,
      // The factories' deployment must be in range for Ponder to find their pairs.
      startBlock: 0,
      maxRequestsPerSecond,
    });
    const expected = await countSwapLogs(chain.rpcUrl, factories);
    const ponder = await runPonder(appDir, emulator, expected, timeoutMs);

    const history = chain.history;
    const chainLabel = `${spec.name}: ${history.blocks} blocks, ${history.transactions} txs, ${history.swapLogs} Swap logs (built in ${(buildMs / 1000).toFixed(0)} s)`;
    return compare(chainLabel, swapgraph, ponder, expected);
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
    return {
      readyMs: readyAt - child.spawnedAt,
      usage,
      completeMs: complete ? performance.now() - child.spawnedAt : Number.NaN,
      completeUsage: emulator.usage(),
      indexed: complete
        ? `${rows} swap rows`
        : `${rows} swap rows, ${chain.swaps - rows} MISSING at the head`,
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

function compare(chain: string, swapgraph: Side, ponder: PonderSide, expected: ChainSwaps): PonderRow[] {
  const row = (metric: string, a: number, b: number, show: (value: number) => string): PonderRow => ({
    chain,
    metric,
    swapgraph: show(a),
    Ponder: Number.isNaN(b) ? "never (rows missing)" : show(b),
    "Ponder / swapgraph": a === 0 || Number.isNaN(b) ? "n/a" : (b / a).toFixed(2),
  });
  const count = (value: number) => value.toLocaleString("en-US");
  const mb = (value: number) => (value / 1024 / 1024).toFixed(2);
  const methods = (usage: ProviderUsage) =>
    [...usage.byMethod]
      .sort((x, y) => y[1].calls - x[1].calls)
      .map(([method, u]) => `${method} ${u.calls}`)
      .join(", ");
  const s = (ms: number) => ms / 1000;
  const fixed = (v: number) => v.toFixed(1);
  const done = ponder.completeUsage;
  return [
    row("start to /ready (s)", s(swapgraph.readyMs), s(ponder.readyMs), fixed),
    row("start to every swap stored (s)", s(swapgraph.readyMs), s(ponder.completeMs), fixed),
    // The wall time the node spent answering: the floor the node sets under each side's time.
    row("of it, the node answering (s)", s(swapgraph.usage.nodeBusyMs), s(done.nodeBusyMs), fixed),
    row(
      "the node answering until /ready (s)",
      s(swapgraph.usage.nodeBusyMs),
      s(ponder.usage.nodeBusyMs),
      fixed,
    ),
    row("RPC calls", swapgraph.usage.total.calls, done.total.calls, count),
    row("compute units", swapgraph.usage.total.computeUnits, done.total.computeUnits, count),
    row("JSON bytes (MB)", swapgraph.usage.total.bytes, done.total.bytes, mb),
    row("bytes on the wire, gzip (MB)", swapgraph.usage.wireBytes, done.wireBytes, mb),
    row("RPC calls until Ponder's /ready", swapgraph.usage.total.calls, ponder.usage.total.calls, count),
    row(
      "compute units until Ponder's /ready",
      swapgraph.usage.total.computeUnits,
      ponder.usage.total.computeUnits,
      count,
    ),
    row("JSON bytes until Ponder's /ready (MB)", swapgraph.usage.total.bytes, ponder.usage.total.bytes, mb),
    {
      chain,
      metric: "indexed",
      swapgraph: swapgraph.indexed,
      Ponder: `${ponder.indexed} (chain: ${expected.swaps} Swap logs)`,
      "Ponder / swapgraph": "",
    },
    {
      chain,
      metric: "calls by method",
      swapgraph: methods(swapgraph.usage),
      Ponder: methods(done),
      "Ponder / swapgraph": "",
    },
  ];
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
 * Sizes from BENCH_PONDER_ISSUE17_BLOCKS (default 100, the issue's), BENCH_PONDER_ONE_PAIR_SWAPS
 * (default 20,000, the issue's) and BENCH_PONDER_DENSE_SWAPS (default 20,000; the issue's day is
 * 100,000): the defaults run the whole part in a few minutes.
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
    denseSwaps: positive("BENCH_PONDER_DENSE_SWAPS", 20_000),
  };
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
  });
  process.exit(process.exitCode ?? 0);
}
