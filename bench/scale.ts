import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { writeManifest } from "@swapgraph/devnet/writeManifest.js";
import { createPublicClient, encodeEventTopics, http, type Log, parseEventLogs } from "viem";
import { pairEventsAbi } from "../src/chain/abis.js";
import { SWAP_ROW_KEYS } from "../src/views/answers/swapRow.js";
import { maxOf, pollSteadily, type SteadyPoll, sampleRss, statusCounts } from "./scaleProbes.js";
import {
  type ChildLogLine,
  killSwapgraphProcesses,
  type SwapgraphProcess,
  startSwapgraphProcess,
} from "./startSwapgraphProcess.js";

/** One line of a scale table. */
export interface ScaleRow {
  metric: string;
  value: string;
  reference: string;
}

/** Options of the scale benchmark. */
export interface BenchScaleOptions {
  /** Swap transactions of each dense devnet (default 20,000 and 100,000). */
  sizes: number[];
  /** Trades of the one-pair reference chain (default 20,000; 0 skips it). */
  onePairSwaps?: number;
  /** Downloads of /api/swaps_24h per size (default 10). */
  downloads?: number;
  log?: (message: string) => void;
}

// 23 hours of history: every trade stays in the API's 24-hour window for the whole run.
const DAYS = 23 / 24;
const DOWNLOAD_TIMEOUT_MS = 120_000;
// The quote and the volume list are polled this often during the backfill and after /ready.
const PROBE_INTERVAL_MS = 100;
const AFTER_READY_MS = 10_000;
const RSS_SAMPLE_MS = 250;
// Temp dirs of the run in progress, removed on SIGINT/SIGTERM too.
const tempDirs = new Set<string>();

function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/**
 * `npm run bench` (scale part): for each size, a dense one-network (bsc) devnet, the provider
 * emulator (counting, no faults) in front of it and swapgraph in a child process indexing through the proxy.
 * Backfill throughput is printed next to the raw eth_getLogs + decode rate of the same chain
 * measured in the same run, and its own time next to the node's (the emulator's nodeBusyMs); the
 * RSS peak from start to /ready; /api/quote and /api/trade_volume_usd_7d latencies and statuses
 * polled during the backfill and for 10 s after /ready; then RPC calls and bytes per trade,
 * memory, the /api/swaps_24h download and /health latency during it. Returns the tables it printed.
 */
export async function benchScale(options: BenchScaleOptions): Promise<Map<string, ScaleRow[]>> {
  const log = options.log ?? ((message: string) => console.log(message));
  const tables = new Map<string, ScaleRow[]>();
  const onSignal = (signal: NodeJS.Signals) => {
    killSwapgraphProcesses();
    for (const dir of tempDirs) removeTempDir(dir);
    // The exit hook of startAnvil kills the anvils.
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    // Each table prints as soon as it is measured; a failed part is reported and the rest runs.
    const part = async (title: string, measure: () => Promise<ScaleRow[]>) => {
      try {
        const rows = await measure();
        tables.set(title, rows);
        console.log(title);
        console.table(rows);
      } catch (error) {
        process.exitCode = 1;
        console.log(`${title}: FAILED: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    for (const size of options.sizes) {
      await part(
        `Scale: dense bsc devnet, ${size.toLocaleString("en-US")} swap transactions in 23 h, swapgraph in a child process behind the provider emulator`,
        () => benchSize(size, options.downloads ?? 10, log),
      );
    }
    const onePair = options.onePairSwaps ?? 20_000;
    if (onePair > 0) {
      await part(
        `Reference: one-pair chain, ${onePair.toLocaleString("en-US")} swaps, 50 a block: process start to /ready`,
        () => benchOnePair(onePair, log),
      );
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  return tables;
}

/**
 * The scale table of a dense devnet the caller built and keeps (its `devnet.stop()` is the
 * caller's): a day that takes half an hour to build, measured later in the hours its history
 * stays inside the 24-hour window. `npm run bench` builds its own (benchScale).
 * @public
 */
export function benchScaleOnDevnet(
  built: { devnet: Devnet; ms: number },
  size: number,
  downloads = 10,
  log: (message: string) => void = (message) => console.log(message),
): Promise<ScaleRow[]> {
  return benchSize(size, downloads, log, built);
}

async function benchSize(
  size: number,
  downloads: number,
  log: (message: string) => void,
  prebuilt?: { devnet: Devnet; ms: number },
): Promise<ScaleRow[]> {
  const dir = makeTempDir("swapgraph-bench-scale-");
  const rows: ScaleRow[] = [];
  const row = (metric: string, value: string, reference = "") => rows.push({ metric, value, reference });
  let devnet: Devnet | undefined;
  let proxy: ProviderEmulator | undefined;
  let child: SwapgraphProcess | undefined;
  try {
    if (prebuilt === undefined) log(`scale ${size}: building the dense devnet`);
    const built =
      prebuilt ??
      (await buildDevnet(
        // 50 swaps a block: the dense day Ponder's start-to-ready was measured on (FACTS.md).
        { profile: "dense", swapsPerNetwork: size, swapsPerBlock: 50, days: DAYS },
        join(dir, "devnet"),
        120_000 + size * 10,
      ));
    devnet = prebuilt === undefined ? built.devnet : undefined;
    const chain = built.devnet.chains[0]!;
    const history = chain.history;
    row(
      "devnet build",
      `${seconds(built.ms)} s`,
      `${history.blocks} blocks, ${Math.round(size / history.blocks)} trades a block, ${history.swapLogs} swaps, ${chain.pools.length} pools, ${chain.traders.length} traders`,
    );

    log(`scale ${size}: raw eth_getLogs + decode`);
    const rawStarted = performance.now();
    const raw = await measureRaw(chain.rpcUrl, history.fromBlock, history.toBlock, size, history.blocks);
    log(`scale ${size}: raw work measured in ${seconds(performance.now() - rawStarted)} s`);

    proxy = await createProviderEmulator({ upstream: chain.rpcUrl });
    const configPath = join(dir, "manifest.json");
    await writeManifest(configPath, [{ ...built.devnet.networks[0]!, rpcUrls: [proxy.url] }]);
    // The bench downloads the whole window again and again from one address: the per-client list
    // budget (1 MiB/s after a 64 MiB burst by default) would refuse the second download of a large
    // day for minutes. Off here: this measures serving, not that limit.
    await withoutListBudget(configPath);
    const dataDir = join(dir, "data");
    mkdirSync(dataDir);
    log(`scale ${size}: swapgraph backfill`);
    child = await startSwapgraphProcess({ configPath, dataDir });
    const started = child;
    const rss = sampleRss(() => started.rssBytes(), RSS_SAMPLE_MS);
    const readyTimeoutMs = 120_000 + size * 5;
    let readySettled = false;
    const ready = started.waitForReady(readyTimeoutMs).finally(() => {
      readySettled = true;
    });
    // Awaited below, after the probes start: a rejection meanwhile is not an unhandled one.
    ready.catch(() => {});
    // The probes start when the child serves (indexing has started): the node's busy time so far
    // was start-up's, and the API answers from then on.
    while (started.servingAt() === undefined && !readySettled) await sleep(10);
    const nodeBusyAtServing = proxy.usage().nodeBusyMs;
    const pair = quotePair(chain);
    const quoteUrl = `${started.baseUrl}/api/quote?network=bsc&sellToken=${pair.sell}&buyToken=${pair.buy}`;
    const volumeUrl = `${started.baseUrl}/api/trade_volume_usd_7d?network=bsc`;
    const quoteDuring = pollSteadily(quoteUrl, PROBE_INTERVAL_MS);
    const volumeDuring = pollSteadily(volumeUrl, PROBE_INTERVAL_MS);
    let readyAt: number;
    let rssPeak: number | undefined;
    let during: SteadyPoll[];
    try {
      readyAt = await ready.catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${started.tail()}`);
      });
    } finally {
      rssPeak = rss.stop().peakBytes;
      during = await Promise.all([quoteDuring.stop(), volumeDuring.stop()]);
    }
    const usage = proxy.usage();
    const counts = usage.byMethod;
    const httpRequests = usage.httpRequests;
    const rssBackfill = child.rssBytes();
    const servingAt = child.servingAt() ?? child.spawnedAt;
    const backfillMs = readyAt - servingAt;
    const backfillRate = size / (backfillMs / 1000);
    const rawRate = size / (raw.totalMs / 1000);
    const rawWithSenders = size / ((raw.totalMs + raw.sendersMs) / 1000);
    row(
      "backfill: start of indexing to /ready 200",
      `${seconds(backfillMs)} s, ${Math.round(backfillRate)} trades/s`,
      `raw getLogs + decode: ${seconds(raw.totalMs)} s (${seconds(raw.fetchMs)} fetch + ${seconds(raw.decodeMs)} decode), ${Math.round(rawRate)} trades/s; ratio ${(backfillRate / rawRate).toFixed(2)}`,
    );
    row(
      "backfill vs raw work that also reads senders",
      `ratio ${(backfillRate / rawWithSenders).toFixed(2)}`,
      `raw getLogs + decode + one eth_getTransactionByHash per trade: ${seconds(raw.totalMs + raw.sendersMs)} s, ${Math.round(rawWithSenders)} trades/s`,
    );
    const done = lastLog(child.logs, (line) => line.msg === "backfill reached the head");
    row(
      "backfill: as the indexer logs it",
      done === undefined
        ? "no 'backfill reached the head' line"
        : `${String(done.line.trades)} trades in ${String(done.line.seconds)} s, ${String(done.line.tradesPerSecond)} trades/s`,
      `${raw.logs} Swap+Sync logs in ${raw.calls} getLogs calls of ${raw.chunkBlocks} blocks`,
    );
    row(
      "process start to /ready 200",
      `${seconds(readyAt - child.spawnedAt)} s`,
      size === 100_000
        ? `includes node start-up (the production build, as npm start runs it); Ponder 1.0 50.5 s on a 100k day of 50 swaps a block (FACTS.md, not measured in this run): ${(50.5 / ((readyAt - child.spawnedAt) / 1000)).toFixed(1)}x; the side-by-side ratio (BENCH_PONDER=1) is the one to hold to 4x`
        : "includes node start-up (the production build, as npm start runs it)",
    );

    const nodeBusyMs = usage.nodeBusyMs - nodeBusyAtServing;
    const ownMs = backfillMs - nodeBusyMs;
    row(
      "backfill: own time against the node's",
      `own ${seconds(ownMs)} s, node busy ${seconds(nodeBusyMs)} s: ratio own/node ${(ownMs / nodeBusyMs).toFixed(2)} (aim at most 1)`,
      `wall ${seconds(backfillMs)} s (serving to /ready 200); node busy: the emulator's time with at least one request waiting for anvil; own: the rest`,
    );
    row(
      "RSS peak during the backfill",
      rssPeak === undefined
        ? "n/a"
        : `${mb(rssPeak)} MB (aim at most 400 MB: ${rssPeak <= 400 * 1024 * 1024 ? "met" : "not met"})`,
      `sampled every ${RSS_SAMPLE_MS} ms from process start to /ready 200; at /ready ${rssBackfill === undefined ? "n/a" : `${mb(rssBackfill)} MB (${rssBackfill <= 400 * 1024 * 1024 ? "met" : "not met"})`}`,
    );
    const polled = [`/api/quote ${pair.label}`, "/api/trade_volume_usd_7d"];
    log(
      `scale ${size}: /api/quote and /api/trade_volume_usd_7d every ${PROBE_INTERVAL_MS} ms for ${seconds(AFTER_READY_MS)} s after /ready`,
    );
    const quoteAfter = pollSteadily(quoteUrl, PROBE_INTERVAL_MS);
    const volumeAfter = pollSteadily(volumeUrl, PROBE_INTERVAL_MS);
    await sleep(AFTER_READY_MS);
    const after = await Promise.all([quoteAfter.stop(), volumeAfter.stop()]);
    for (const [i, name] of polled.entries()) {
      const backfilling = during[i]!;
      row(
        `GET ${name} during the backfill`,
        latencies(backfilling),
        `every ${PROBE_INTERVAL_MS} ms, one at a time, from serving to /ready 200; ${backfilling.latencies.length} answers: ${statusCounts(backfilling.statuses)}${backfilling.firstOkAt === undefined ? "" : `; the first 200 ${seconds(readyAt - backfilling.firstOkAt)} s before /ready`}`,
      );
      const poll = after[i]!;
      row(
        `GET ${name} after /ready`,
        latencies(poll),
        `every ${PROBE_INTERVAL_MS} ms for ${seconds(AFTER_READY_MS)} s, before the downloads; ${poll.latencies.length} answers: ${statusCounts(poll.statuses)}`,
      );
    }

    const totalCalls = usage.total.calls;
    const totalBytes = usage.total.bytes;
    row(
      "RPC, all methods",
      `${perTrade(totalCalls, size)} calls/trade, ${perTrade(usage.total.computeUnits, size, 2)} CU/trade, ${perTrade(totalBytes, size, 0)} B/trade`,
      `${totalCalls} calls in ${httpRequests} HTTP requests, ${usage.total.computeUnits} compute units, ${mb(totalBytes)} MB; reading full blocks (the previous indexer): ${perTrade(raw.logBytes + raw.fullBlockBytes, size, 0)} B/trade`,
    );
    for (const [method, count] of [...counts].sort((a, b) => b[1].bytes - a[1].bytes)) {
      row(
        `RPC ${method}`,
        `${perTrade(count.calls, size)} calls/trade, ${perTrade(count.bytes, size, 0)} B/trade`,
        `${count.calls} calls, ${count.computeUnits} CU, ${mb(count.bytes)} MB`,
      );
    }

    log(`scale ${size}: /api/swaps_24h x ${downloads} with /health polled every 5 ms`);
    const swapsUrl = `${child.baseUrl}/api/swaps_24h?network=bsc`;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const results: Download[] = [];
    const health: number[] = [];
    try {
      let waitedMs = 0;
      while (results.length < downloads) {
        const poller = pollHealth(`${child.baseUrl}/health`, healthAgent);
        let result: Download;
        try {
          result = await download(swapsUrl, agent, {});
        } finally {
          for (const latency of await poller.stop()) health.push(latency);
        }
        // The budget is off in this config; should a 429 come anyway, it is waited out, not counted.
        if (result.status === 429 && result.retryAfterSeconds !== undefined) {
          waitedMs += result.retryAfterSeconds * 1000;
          await new Promise((wait) => setTimeout(wait, result.retryAfterSeconds! * 1000));
          continue;
        }
        if (result.status !== 200) throw new Error(`GET /api/swaps_24h answered ${result.status}`);
        results.push(result);
      }
      row(
        "per-client list budget",
        "off in this bench's config (http.listBytesPerSecond 0)",
        `one address downloads the whole window ${downloads} times; ${waitedMs > 0 ? `waited out Retry-After for ${seconds(waitedMs)} s` : "no 429"}`,
      );
      const rssDownloads = child.rssBytes();
      row("RSS after backfill", rssBackfill === undefined ? "n/a" : `${mb(rssBackfill)} MB`);
      row(
        `RSS after ${downloads} downloads of /api/swaps_24h`,
        rssDownloads === undefined ? "n/a" : `${mb(rssDownloads)} MB`,
      );
      const first = results[0];
      if (first !== undefined) {
        row(
          "/api/swaps_24h, first download",
          `TTFB ${ms(first.ttfbMs)} ms, total ${ms(first.totalMs)} ms, ${usPerRow(first.totalMs, size)} µs/row`,
          `${mb(first.bytes)} MB, status ${first.status}`,
        );
      }
      const rest = results.slice(1);
      if (rest.length > 0) {
        row(
          `/api/swaps_24h, median of the other ${rest.length}`,
          `TTFB ${ms(median(rest.map((r) => r.ttfbMs)))} ms, total ${ms(median(rest.map((r) => r.totalMs)))} ms, ${usPerRow(median(rest.map((r) => r.totalMs)), size)} µs/row`,
          `max total ${ms(maxOf(rest.map((r) => r.totalMs)))} ms, statuses ${[...new Set(rest.map((r) => r.status))].join(", ")}`,
        );
      }
      const gzip = await download(swapsUrl, agent, { "accept-encoding": "gzip" });
      row(
        "/api/swaps_24h, gzip",
        `TTFB ${ms(gzip.ttfbMs)} ms, total ${ms(gzip.totalMs)} ms, ${usPerRow(gzip.totalMs, size)} µs/row`,
        `${mb(gzip.bytes)} MB on the wire, status ${gzip.status}`,
      );
      row(
        "/health while /api/swaps_24h streams",
        `p99 ${ms(percentile(health, 0.99))} ms, max ${ms(maxOf(health))} ms`,
        `p50 ${ms(percentile(health, 0.5))} ms, ${health.length} polls`,
      );
      const elements = await countElements(swapsUrl);
      const expected = history.trades + history.arbitrageTrades + history.washTrades;
      const hours = (history.toTimestamp - history.fromTimestamp) / 3600;
      row(
        "/api/swaps_24h elements",
        String(elements),
        `expected ${expected} (every trade of the ${hours.toFixed(0)} h: ${history.trades} trader swaps, ${history.arbitrageTrades} arbitrage, ${history.washTrades} wash)`,
      );
    } finally {
      agent.destroy();
      healthAgent.destroy();
    }
    return rows;
  } finally {
    await child?.stop();
    await proxy?.close();
    await devnet?.stop();
    removeTempDir(dir);
  }
}

async function benchOnePair(swaps: number, log: (message: string) => void): Promise<ScaleRow[]> {
  const dir = makeTempDir("swapgraph-bench-onepair-");
  let devnet: Devnet | undefined;
  let child: SwapgraphProcess | undefined;
  try {
    log(`one pair ${swaps}: building the devnet`);
    const built = await buildDevnet(
      { profile: "dense", pools: "one", swapsPerNetwork: swaps, swapsPerBlock: 50, days: DAYS },
      join(dir, "devnet"),
      120_000 + swaps * 10,
    );
    devnet = built.devnet;
    const dataDir = join(dir, "data");
    mkdirSync(dataDir);
    log(`one pair ${swaps}: swapgraph start to /ready`);
    child = await startSwapgraphProcess({ configPath: devnet.manifestPath, dataDir });
    const readyAt = await child.waitForReady(120_000 + swaps * 5).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${child?.tail() ?? ""}`);
    });
    const history = devnet.chains[0]!.history;
    return [
      {
        metric: "process start to /ready 200",
        value: `${seconds(readyAt - child.spawnedAt)} s`,
        reference: `Ponder 1.0 ~44-47 s (FACTS.md, not measured in this run): ${(44 / ((readyAt - child.spawnedAt) / 1000)).toFixed(1)}x; the side-by-side ratio (BENCH_PONDER=1) is the one to hold to 8x`,
      },
      {
        metric: "devnet build",
        value: `${seconds(built.ms)} s`,
        reference: `${history.blocks} blocks, ${history.swapLogs} swaps on 1 pool`,
      },
    ];
  } finally {
    await child?.stop();
    await devnet?.stop();
    removeTempDir(dir);
  }
}

async function buildDevnet(
  options: StartDevnetOptions,
  dataDir: string,
  timeoutMs: number,
): Promise<{ devnet: Devnet; ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const building = startDevnet({
    networks: ["bsc"],
    liveIntervalMs: 0,
    dataDir,
    ...options,
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`devnet not built within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const devnet = await Promise.race([building, timeout]);
    return { devnet, ms: performance.now() - started };
  } catch (error) {
    // A late devnet must still be stopped (its anvil would otherwise live until we exit).
    void building.then((late) => late.stop()).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

interface RawRate {
  fetchMs: number;
  decodeMs: number;
  totalMs: number;
  logs: number;
  calls: number;
  chunkBlocks: number;
  /** eth_getTransactionByHash of every transaction that swapped (batches of 500, 4 in flight). */
  sendersMs: number;
  /** Response bytes of the logs, and of every block that has a swap read with its transactions (what the indexer read before). */
  logBytes: number;
  fullBlockBytes: number;
}

/** eth_getLogs of Swap + Sync over the range in chunks of about 20k logs, then viem's parseEventLogs. */
async function measureRaw(
  rpcUrl: string,
  fromBlock: bigint,
  toBlock: bigint,
  trades: number,
  blocks: number,
): Promise<RawRate> {
  const client = createPublicClient({
    transport: http(rpcUrl, { retryCount: 0, timeout: 120_000, maxResponseBodySize: 512 * 1024 * 1024 }),
  });
  const topics = [
    [
      encodeEventTopics({ abi: pairEventsAbi, eventName: "Swap" })[0]!,
      encodeEventTopics({ abi: pairEventsAbi, eventName: "Sync" })[0]!,
    ],
  ];
  // About 2.5 Swap+Sync logs a trade (multi-hop trades have more).
  const chunkBlocks = Math.max(1, Math.floor(20_000 / Math.max(1, (trades * 2.5) / blocks)));
  let fetchMs = 0;
  let decodeMs = 0;
  let logs = 0;
  let calls = 0;
  let logBytes = 0;
  const txs = new Set<string>();
  const blockNumbers = new Set<string>();
  for (let from = fromBlock; from <= toBlock; from += BigInt(chunkBlocks)) {
    const to = from + BigInt(chunkBlocks) - 1n < toBlock ? from + BigInt(chunkBlocks) - 1n : toBlock;
    let started = performance.now();
    const page = (await client.request({
      method: "eth_getLogs",
      params: [{ fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}`, topics }],
    })) as Log[];
    fetchMs += performance.now() - started;
    calls++;
    started = performance.now();
    const decoded = parseEventLogs({ abi: pairEventsAbi, logs: page });
    decodeMs += performance.now() - started;
    logs += decoded.length;
    logBytes += JSON.stringify(page).length;
    for (const item of page) {
      if (item.transactionHash !== null) txs.add(item.transactionHash);
      if (item.blockNumber !== null) blockNumbers.add(item.blockNumber as unknown as string);
    }
  }
  // The least RPC work that also names each trade's sender: one lookup per transaction that swapped.
  const hashes = [...txs];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < hashes.length) {
        const batch = hashes.slice(next, next + 500);
        next += 500;
        await rawPost(
          rpcUrl,
          batch.map((hash, id) => ({
            jsonrpc: "2.0",
            id,
            method: "eth_getTransactionByHash",
            params: [hash],
          })),
        );
      }
    }),
  );
  const sendersMs = performance.now() - started;
  // Each block alone (its answer's bytes as the indexer read them), 4 in flight: a 1M day has
  // 20,000 blocks of ~70 transactions, minutes one after the other.
  let fullBlockBytes = 0;
  const numbers = [...blockNumbers];
  let nextBlock = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (nextBlock < numbers.length) {
        const number = numbers[nextBlock++]!;
        fullBlockBytes += (
          await rawPost(rpcUrl, {
            jsonrpc: "2.0",
            id: 1,
            method: "eth_getBlockByNumber",
            params: [number, true],
          })
        ).length;
      }
    }),
  );
  return {
    fetchMs,
    decodeMs,
    totalMs: fetchMs + decodeMs,
    logs,
    calls,
    chunkBlocks,
    sendersMs,
    logBytes,
    fullBlockBytes,
  };
}

async function rawPost(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.text();
}

interface Download {
  status: number;
  ttfbMs: number;
  totalMs: number;
  bytes: number;
  /** Retry-After of a 429 (seconds). */
  retryAfterSeconds?: number;
}

/** One GET read to the end without keeping the body: time to first byte, total time, bytes. */
function download(url: string, agent: Agent, headers: Record<string, string>): Promise<Download> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const req = get(url, { agent, headers, timeout: DOWNLOAD_TIMEOUT_MS }, (res) => {
      let ttfbMs: number | undefined;
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        ttfbMs ??= performance.now() - started;
        bytes += chunk.length;
      });
      const retryAfter = Number(res.headers["retry-after"]);
      res.on("end", () =>
        resolvePromise({
          status: res.statusCode ?? 0,
          ttfbMs: ttfbMs ?? performance.now() - started,
          totalMs: performance.now() - started,
          bytes,
          ...(Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} took over ${DOWNLOAD_TIMEOUT_MS} ms`)));
    req.on("error", reject);
  });
}

/** Polls `url` every ~5 ms (one request at a time) until stopped; resolves with the latencies. */
function pollHealth(url: string, agent: Agent): { stop(): Promise<number[]> } {
  const latencies: number[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      await new Promise<void>((done) => {
        const req = get(url, { agent, timeout: 10_000 }, (res) => {
          res.resume();
          res.on("end", () => done());
          res.on("error", () => done());
        });
        req.on("timeout", () => req.destroy());
        req.on("error", () => done());
      });
      latencies.push(performance.now() - started);
      await new Promise((wait) => setTimeout(wait, 5));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return latencies;
    },
  };
}

/** Elements of the JSON array a URL answers (one parse, outside the timed downloads). */
/**
 * The rows of a whole /api/swaps_24h answer, counted as it streams (a day of a million swaps is
 * ~550 MB, past the longest string Node makes, so it is never parsed whole): each row opens with
 * its first key. -1 for an answer other than 200.
 */
async function countElements(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  if (response.status !== 200 || response.body === null) return -1;
  const marker = `{"${SWAP_ROW_KEYS[0]}":`;
  const decoder = new TextDecoder();
  let count = 0;
  let tail = "";
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = tail + decoder.decode(value, { stream: true });
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) count++;
    // Shorter than the marker: a marker split across chunks is counted once, in the next text.
    tail = text.slice(-(marker.length - 1));
  }
  return count;
}

/** Turns the per-client list budget off in the configuration file at `path`. */
async function withoutListBudget(path: string): Promise<void> {
  const config = JSON.parse(await readFile(path, "utf8")) as { http?: Record<string, unknown> };
  config.http = { ...config.http, listBytesPerSecond: 0 };
  await writeFile(path, JSON.stringify(config, null, 2));
}

function lastLog(
  logs: readonly ChildLogLine[],
  match: (line: Record<string, unknown>) => boolean,
): ChildLogLine | undefined {
  for (let i = logs.length - 1; i >= 0; i--) if (match(logs[i]!.line)) return logs[i];
  return undefined;
}

/** p50, p99 and max of a poll's latencies (every answer, whatever its status). */
function latencies(poll: SteadyPoll): string {
  if (poll.latencies.length === 0) return "no answer";
  return `p50 ${ms(percentile(poll.latencies, 0.5))} ms, p99 ${ms(percentile(poll.latencies, 0.99))} ms, max ${ms(maxOf(poll.latencies))} ms`;
}

/** The two tokens of the deepest listed pool (not the thin nor the wash one), by address. */
function quotePair(chain: DevnetChainInfo): { sell: string; buy: string; label: string } {
  const pools = chain.pools
    .filter(
      (pool) =>
        !pool.thin && !pool.wash && pool.symbols.every((symbol) => chain.tokens[symbol] !== undefined),
    )
    .sort((a, b) => (b.tvlUsd > a.tvlUsd ? 1 : b.tvlUsd < a.tvlUsd ? -1 : 0));
  const [sell, buy] = pools[0]?.symbols ?? [];
  if (sell === undefined || buy === undefined) throw new Error("scale: no listed pool to quote");
  return { sell: chain.tokens[sell]!, buy: chain.tokens[buy]!, label: `${sell}/${buy}` };
}

const sleep = (msValue: number) => new Promise((resolve) => setTimeout(resolve, msValue));

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

const seconds = (msValue: number) => (msValue / 1000).toFixed(2);
const ms = (value: number) => value.toFixed(1);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const perTrade = (value: number, trades: number, digits = 4) => (value / trades).toFixed(digits);
const usPerRow = (msValue: number, rows: number) => ((msValue * 1000) / rows).toFixed(2);

/** Sizes from BENCH_SCALE_SIZES ("20000,100000" by default). */
export function scaleSizesFromEnv(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.BENCH_SCALE_SIZES ?? "20000,100000";
  const sizes = raw.split(",").map((part) => Number(part.trim()));
  const bad = sizes.find((size) => !Number.isInteger(size) || size < 1);
  if (bad !== undefined) throw new Error(`BENCH_SCALE_SIZES must be positive integers, got "${raw}"`);
  return sizes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchScale({
    sizes: scaleSizesFromEnv(),
    onePairSwaps: Number(process.env.BENCH_ONE_PAIR_SWAPS ?? 20_000),
  });
}
