import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import { BLOCK_MIXES, type BlockMixName, BUSY_BLOCKS } from "@swapgraph/devnet/presets/devnetProfiles.js";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { NetworkConfig } from "../src/config/types.js";
import { createIndexing } from "../src/createIndexing.js";
import type { RpcCostModel } from "../src/domain/types.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";

/** One line of an RPC economy table. */
export interface EconomyRow {
  metric: string;
  value: string;
  "per trade": string;
  reference: string;
}

/** Options of the RPC economy benchmark. */
export interface BenchRpcEconomyOptions {
  /** Which block mixes to build and index (default both). */
  shapes: BlockMixName[];
  /** History blocks of the "bsc" mix (default BUSY_BLOCKS.bsc); "issue17" is always the issue's 100. */
  bscBlocks?: number;
  /** Cost models whose backfills are compared on each shape (none: no comparison; BENCH_ECONOMY_MODES). */
  modes?: (RpcCostModel | "auto")[];
  /** Backfills per mode, alternating modes; the table gives the median (default 3). */
  rounds?: number;
  log?: (message: string) => void;
}

/**
 * Ponder 1.0 indexing the issue's shape (100 blocks x 20 trades + 20 foreign swaps + 100
 * transfers; factory pattern, event.transaction.from), measured before on this machine kind in
 * one run (FACTS.md, turn 3): 83 eth_getBlockByNumber with transactions (9.5 MB), 7 eth_getLogs
 * filtered by pair addresses (2.0 MB), 1 other call; compute units priced with the same table.
 */
const PONDER_ISSUE17 = {
  calls: 91,
  computeUnits: 83 * 16 + 7 * 75 + 20,
  bytes: 11.6 * 1024 * 1024,
  byMethod: {
    eth_getBlockByNumber: "Ponder 1.0: 83 calls, 1,328 CU, 9.5 MB",
    eth_getLogs: "Ponder 1.0: 7 calls, 525 CU, 2.0 MB",
  } as Record<string, string>,
};
/** swapgraph on the same shape before issue 17's work (FACTS.md, turn 3). */
const SWAPGRAPH_TURN3 = "swapgraph before issue 17 (FACTS.md): 2,079 calls, 8.4 MB";

const silent = { info() {}, warn() {}, error() {} };
// BSC's block time, and how long the head is followed.
const HEAD_BLOCK_MS = 750;
const HEAD_SECONDS = Number(process.env.BENCH_HEAD_SECONDS ?? 20);

/**
 * `npm run bench` (RPC economy part): for each block mix, a bsc-shaped devnet, the provider
 * emulator in front of it (no faults) and a full backfill by swapgraph (in process, SQLite)
 * through it: RPC calls, compute units and bytes in total and per indexed trade, by method, with
 * Ponder's figures beside the issue's shape. Returns the tables it printed.
 */
export async function benchRpcEconomy(options: BenchRpcEconomyOptions): Promise<Map<string, EconomyRow[]>> {
  const log = options.log ?? ((message: string) => console.log(message));
  const tables = new Map<string, EconomyRow[]>();
  for (const shape of options.shapes) {
    const blocks = shape === "bsc" ? (options.bscBlocks ?? BUSY_BLOCKS.bsc) : BUSY_BLOCKS.issue17;
    const mix = BLOCK_MIXES[shape];
    const title =
      shape === "issue17"
        ? `RPC economy: issue 17's shape, ${blocks} blocks x (${mix.trades} configured-DEX trades + ${mix.foreignSwaps} foreign-fork swaps + ${mix.nativeTransfers} native transfers), full backfill through the provider emulator`
        : `RPC economy: BSC-shaped chain, ${blocks} blocks of ~165 transactions (${mix.trades} configured-DEX trades, ${mix.foreignSwaps} foreign-fork swaps, the rest background), full backfill through the provider emulator`;
    try {
      const { rows, modes } = await measure(shape, blocks, options, log);
      tables.set(title, rows);
      console.log(title);
      console.table(rows);
      if (modes.length > 0) {
        const modesTitle = `Cost models on the ${shape} shape (${blocks} blocks): full backfill through the provider emulator (a local URL: "auto" resolves to "time"), median of ${options.rounds ?? 3} alternating runs`;

        console.log(modesTitle);
        console.table(modes.map(({ readyMs: _readyMs, ...row }) => row));
        const verdict = defaultAgainstBest(modes);
        if (verdict !== undefined) console.log(verdict);
      }
    } catch (error) {
      process.exitCode = 1;
      console.log(`${title}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return tables;
}

/**
 * The default cost model ("auto") against the fastest mode of the same table, by median time to
 * ready (issue 28's aim: at most 1.1). Undefined when "auto" was not among the modes.
 */
function defaultAgainstBest(modes: readonly Pick<ModeRow, "costModel" | "readyMs">[]): string | undefined {
  const auto = modes.find((row) => row.costModel === "auto");
  if (auto === undefined || modes.length < 2) return undefined;
  const best = modes.reduce((a, b) => (b.readyMs < a.readyMs ? b : a));
  const ratio = auto.readyMs / best.readyMs;
  return `default ("auto") against the best mode (${best.costModel}), median time to ready: ${ratio.toFixed(2)} (aim at most 1.1: ${ratio <= 1.1 ? "met" : "NOT met"})`;
}

/** One line of the cost models' table. */
interface ModeRow {
  costModel: string;
  calls: number;
  "compute units": number;
  MB: string;
  "HTTP requests": number;
  "ready (s)": string;
  "ready, all runs (s)": string;
  /** The median time to ready in ms (not printed: the verdict line uses it). */
  readyMs: number;
}

/**
 * Full backfills of `config` through the emulator, once per mode and round (modes alternate, so
 * that the machine's drift is spread over all): calls, compute units and bytes (the same every
 * run, by the emulator's meter) and the wall time to ready (the median).
 */
async function compareModes(
  config: NetworkConfig,
  emulator: ProviderEmulator,
  modes: readonly (RpcCostModel | "auto")[],
  rounds: number,
  dir: string,
  log: (message: string) => void,
): Promise<ModeRow[]> {
  const runs = new Map<string, { ms: number[]; usage: ReturnType<ProviderEmulator["usage"]> }>();
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      log(`economy: backfill by ${mode}, round ${round + 1} of ${rounds}`);
      const store = createSqliteStore({ path: join(dir, `mode-${mode}-${round}.sqlite`) });
      await store.migrate();
      emulator.reset();
      const started = performance.now();
      let indexing: ReturnType<typeof createIndexing> | undefined;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error("backfill did not finish within 10 minutes")),
          600_000,
        );
        indexing = createIndexing({
          networks: [{ ...config, rpc: { ...config.rpc, costModel: mode } }],
          store,
          log: silent,
          onProgress: (p) => {
            if (!p.done) return;
            clearTimeout(timer);
            resolve();
          },
        });
        indexing.start();
      });
      const ms = performance.now() - started;
      const usage = emulator.usage();
      await indexing!.stop();
      await store.close();
      const run = runs.get(mode) ?? { ms: [], usage };
      run.ms.push(ms);
      runs.set(mode, run);
    }
  }
  return [...runs].map(([mode, run]) => {
    const sorted = [...run.ms].sort((a, b) => a - b);
    return {
      costModel: mode,
      calls: run.usage.total.calls,
      "compute units": run.usage.total.computeUnits,
      MB: mb(run.usage.total.bytes),
      "HTTP requests": run.usage.httpRequests,
      "ready (s)": seconds(sorted[Math.floor(sorted.length / 2)]!),
      "ready, all runs (s)": run.ms.map(seconds).join(", "),
      readyMs: sorted[Math.floor(sorted.length / 2)]!,
    };
  });
}

async function measure(
  shape: BlockMixName,
  blocks: number,
  options: BenchRpcEconomyOptions,
  log: (message: string) => void,
): Promise<{ rows: EconomyRow[]; modes: ModeRow[] }> {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-economy-"));
  let devnet: Devnet | undefined;
  let emulator: ProviderEmulator | undefined;
  try {
    log(`economy ${shape}: building ${blocks} blocks`);
    const built = performance.now();
    devnet = await startDevnet({
      profile: "bsc-shaped",
      blockMix: shape,
      blocks,
      networks: ["bsc"],
      liveIntervalMs: 0,
      dataDir: join(dir, "devnet"),
    });
    const buildMs = performance.now() - built;
    const chain = devnet.chains[0]!;
    emulator = await createProviderEmulator({ upstream: chain.rpcUrl });
    // From the history's first block, as the reference runs were started.
    const config = {
      ...devnet.networks[0]!,
      rpcUrls: [emulator.url],
      startBlock: chain.history.fromBlock,
      pollIntervalMs: HEAD_BLOCK_MS,
    };
    const modes =
      options.modes === undefined || options.modes.length === 0
        ? []
        : await compareModes(config, emulator, options.modes, options.rounds ?? 3, dir, log);
    const store = createSqliteStore({ path: join(dir, "bench.sqlite") });
    await store.migrate();
    log(`economy ${shape}: swapgraph backfill`);
    // The cost models' backfills above went through the same emulator: this one counts alone.
    emulator.reset();
    const started = performance.now();
    let indexing: ReturnType<typeof createIndexing> | undefined;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("backfill did not finish within 10 minutes")), 600_000);
      indexing = createIndexing({
        networks: [config],
        store,
        log: silent,
        onProgress: (p) => {
          if (!p.done) return;
          clearTimeout(timer);
          resolve();
        },
      });
      indexing.start();
    });
    const backfillMs = performance.now() - started;
    const usage = emulator.usage();
    const trades = await store.countTrades("bsc", 0);
    // Following the head: live blocks of a few trades every ~0.75 s (BSC's block time), polled
    // as often; calls per block of the head the indexer reached.
    log(`economy ${shape}: following the head for ${HEAD_SECONDS} s`);
    const headFrom = indexing!.views.status("bsc").indexedBlock ?? 0n;
    emulator.reset();
    devnet.startLive(HEAD_BLOCK_MS);
    await new Promise((resolve) => setTimeout(resolve, HEAD_SECONDS * 1000));
    await devnet.stopLive();
    const headTo = indexing!.views.status("bsc").indexedBlock ?? 0n;
    const head = emulator.usage();
    await indexing!.stop();
    await store.close();
    const headBlocks = Number(headTo - headFrom);

    const busy = chain.busy!.summary;
    const ponder = shape === "issue17";
    const rows: EconomyRow[] = [];
    const row = (metric: string, value: string, perTrade: string, reference = "") =>
      rows.push({ metric, value, "per trade": perTrade, reference });
    row(
      "chain",
      `${chain.history.blocks} blocks, ${chain.history.transactions} transactions`,
      "",
      `${busy.txsPerBlock.mean} a block (${busy.txsPerBlock.min}-${busy.txsPerBlock.max}); built in ${seconds(buildMs)} s`,
    );
    row(
      "trades indexed",
      String(trades),
      "",
      `${chain.history.trades} traders' + ${chain.history.arbitrageTrades} arbitrage; ${busy.foreignSwaps} foreign-fork swaps not indexed`,
    );
    row("backfill time", `${seconds(backfillMs)} s`, "", "in process, SQLite");
    row(
      "RPC calls",
      String(usage.total.calls),
      per(usage.total.calls, trades, 4),
      ponder
        ? `Ponder 1.0: ${PONDER_ISSUE17.calls} (${per(PONDER_ISSUE17.calls, trades, 4)}/trade); ${SWAPGRAPH_TURN3}`
        : `${usage.httpRequests} HTTP requests (${usage.batches} batches)`,
    );
    row(
      "compute units",
      String(usage.total.computeUnits),
      per(usage.total.computeUnits, trades, 2),
      ponder
        ? `Ponder 1.0: ~${PONDER_ISSUE17.computeUnits.toLocaleString("en-US")} (${per(PONDER_ISSUE17.computeUnits, trades, 2)}/trade)`
        : "",
    );
    row(
      "bytes on the wire",
      `${mb(usage.wireBytes)} MB`,
      `${per(usage.wireBytes, trades, 0)} B`,
      "gzip, as hosted providers answer a client that accepts it (Node's fetch, hence viem, does)",
    );
    row(
      "bytes",
      `${mb(usage.total.bytes)} MB`,
      `${per(usage.total.bytes, trades, 0)} B`,
      ponder
        ? `Ponder 1.0: ${mb(PONDER_ISSUE17.bytes)} MB (${per(PONDER_ISSUE17.bytes, trades, 0)} B/trade)`
        : "",
    );
    row(
      `following the head (${HEAD_SECONDS} s)`,
      `${headBlocks} blocks, ${head.total.calls} calls`,
      headBlocks === 0
        ? "n/a"
        : `${(head.total.calls / headBlocks).toFixed(2)} calls, ${(head.total.computeUnits / headBlocks).toFixed(0)} CU a block`,
      `live blocks every ~${HEAD_BLOCK_MS} ms, polled every ${HEAD_BLOCK_MS} ms; ${[...head.byMethod]
        .map(([method, u]) => `${method} ${u.calls}`)
        .join(", ")}; target <= 3 calls a block (Ponder 1.0: a block and its logs, 2)`,
    );
    for (const [method, u] of [...usage.byMethod].sort((a, b) => b[1].computeUnits - a[1].computeUnits)) {
      row(
        `  ${method}`,
        `${u.calls} calls, ${u.computeUnits} CU, ${mb(u.bytes)} MB`,
        `${per(u.calls, trades, 4)} calls, ${per(u.computeUnits, trades, 2)} CU, ${per(u.bytes, trades, 0)} B`,
        ponder ? (PONDER_ISSUE17.byMethod[method] ?? "") : "",
      );
    }
    return { rows, modes };
  } finally {
    await emulator?.close();
    await devnet?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
const per = (value: number, trades: number, digits: number) =>
  trades === 0 ? "n/a" : (value / trades).toFixed(digits);

/** Shapes from BENCH_ECONOMY_SHAPES ("bsc,issue17" by default). */
export function economyShapesFromEnv(env: NodeJS.ProcessEnv = process.env): BlockMixName[] {
  const raw = env.BENCH_ECONOMY_SHAPES ?? "bsc,issue17";
  const shapes = raw.split(",").map((part) => part.trim());
  const bad = shapes.find((shape) => !(shape in BLOCK_MIXES));
  if (bad !== undefined) {
    throw new Error(`BENCH_ECONOMY_SHAPES takes ${Object.keys(BLOCK_MIXES).join(", ")}; got "${raw}"`);
  }
  return shapes as BlockMixName[];
}

const ECONOMY_MODES = ["auto", "computeUnits", "time", "bytes", "calls"] as const;

/** Cost models from BENCH_ECONOMY_MODES (unset: "auto,computeUnits,time,bytes,calls"; "none": no comparison). */
export function economyModesFromEnv(env: NodeJS.ProcessEnv = process.env): (RpcCostModel | "auto")[] {
  const raw = env.BENCH_ECONOMY_MODES ?? ECONOMY_MODES.join(",");
  if (raw === "" || raw === "none") return [];
  const modes = raw.split(",").map((part) => part.trim());
  const bad = modes.find((mode) => !(ECONOMY_MODES as readonly string[]).includes(mode));
  if (bad !== undefined)
    throw new Error(`BENCH_ECONOMY_MODES takes ${ECONOMY_MODES.join(", ")} or none; got "${raw}"`);
  return modes as (RpcCostModel | "auto")[];
}

/** The "bsc" shape's block count from BENCH_ECONOMY_BLOCKS (default BUSY_BLOCKS.bsc). */
export function economyBlocksFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.BENCH_ECONOMY_BLOCKS;
  if (raw === undefined) return undefined;
  const blocks = Number(raw);
  if (!Number.isInteger(blocks) || blocks < 1)
    throw new Error(`BENCH_ECONOMY_BLOCKS must be a positive integer, got "${raw}"`);
  return blocks;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bscBlocks = economyBlocksFromEnv();
  await benchRpcEconomy({
    shapes: economyShapesFromEnv(),
    ...(bscBlocks === undefined ? {} : { bscBlocks }),
    modes: economyModesFromEnv(),
    rounds: Number(process.env.BENCH_ECONOMY_ROUNDS ?? 3),
  });
  // The devnets' anvils are stopped; the exit hook of startAnvil covers an interrupted run.
  process.exit(process.exitCode ?? 0);
}
