import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import type { ProviderFaults } from "@swapgraph/devnet/emulator/providerFaults.js";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SHARED_TOKEN_BUCKETS } from "../../src/chain/getSharedTokenBucket.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { RPC_PACES } from "../../src/lib/rpcPaces.js";
import { createMetrics } from "../../src/metrics/createMetrics.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { buildRateLimitNote } from "../../src/views/buildRateLimitNote.js";
import { createMemoryLogger } from "../graphql/support.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { type ChainTrade, projectChainTrades } from "../support/readTradesFromReceipts.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

/**
 * swapgraph indexes one small BSC-shaped chain through the provider emulator answering HTTP 429
 * with Retry-After above a rate limit (as public endpoints do): the indexer learns each URL's
 * pace from those answers, the checkpoint advances, the head poll is answered in its own lane,
 * a rate limit is logged as a state (a line when it starts), and the trades stored equal those
 * of a run without the limit, keyed by transaction hash and log index.
 */
const NOW = Math.floor(Date.now() / 1000);
const NETWORK = "bsc";

let devnet: Devnet;
let dataDir: string;
let chainConfig: NetworkConfig;
let head: bigint;
let reference: Map<string, ChainTrade>;

const keyOf = (trade: ChainTrade) => `${trade.txHash}:${trade.logIndex}`;

interface Run {
  emulator: ProviderEmulator;
  indexing: Indexing;
  store: Store;
  /** Log lines at warn level or above. */
  warnings(): Record<string, unknown>[];
  records: Record<string, unknown>[];
  trades(): Promise<Map<string, ChainTrade>>;
  end(): Promise<void>;
}

async function startRun(faults: ProviderFaults): Promise<Run> {
  // Each run models a process of its own: no pace learned by an earlier run (whose emulator's
  // port this one may reuse) carries over.
  SHARED_TOKEN_BUCKETS.clear();
  RPC_PACES.clear();
  const emulator = await createProviderEmulator({ upstream: chainConfig.rpcUrls[0]!, faults });
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const { logger, records } = createMemoryLogger("info");
  const config = { ...chainConfig, rpcUrls: [emulator.url] };
  const indexing = createIndexing({ networks: [config], store, log: logger, now: () => NOW });
  indexing.start();
  return {
    emulator,
    indexing,
    store,
    records,
    warnings: () => records.filter((r) => (r.level as number) >= 40),
    async trades() {
      return new Map(projectChainTrades(await listAllTrades(store, NETWORK, 0)).map((t) => [keyOf(t), t]));
    },
    async end() {
      await indexing.stop();
      await store.close();
      await emulator.close();
    },
  };
}

/** Resolves once the network is ready at the chain's head (generous: a paced backfill on a loaded machine). */
function readyAtHead(run: Run, timeoutMs: number): Promise<void> {
  return waitUntilIndexed(run.indexing.views, NETWORK, { to: head, timeoutMs });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-ratelimits-"));
  devnet = await startDevnet({
    profile: "bsc-shaped",
    // Ten full blocks (~200 trades): enough calls that either limit is met and held for seconds.
    blocks: 10,
    traders: 40,
    networks: ["bsc"],
    liveIntervalMs: 0,
    dataDir,
    seed: 29,
  });
  // A 300 ms poll: the head is asked several times a second's budget, to show it keeps its lane.
  chainConfig = { ...devnet.networks[0]!, pollIntervalMs: 300 };
  head = await createPublicClient({ transport: http(chainConfig.rpcUrls[0]) }).getBlockNumber({
    cacheTime: 0,
  });
  const run = await startRun({});
  try {
    await readyAtHead(run, 60_000);
    reference = await run.trades();
  } finally {
    await run.end();
  }
});

afterAll(async () => {
  await devnet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("indexing through a rate-limited provider", () => {
  test("behavior: at 25 calls/s (429 + Retry-After: 1 above) the backfill finishes under the limit, nothing lost, one warn line, and /metrics shows the learned pace", async () => {
    expect(reference.size).toBeGreaterThan(100);
    const run = await startRun({ rateLimit: { callsPerSecond: 25, burst: 3, retryAfterSeconds: 1 } });
    try {
      await readyAtHead(run, 90_000);
      const usage = run.emulator.usage();
      // The limit was met (the pace is learned from it) and held: most calls went through.
      expect(usage.faults.rateLimit).toBeGreaterThan(0);
      expect(usage.refused).toBeLessThan(usage.total.calls / 4);
      expect(await run.trades()).toEqual(reference);
      // A state, not an error stream: the warn lines are the limit's start, not one per refusal.
      const warnings = run.warnings();
      expect(warnings.length).toBeLessThan(100);
      expect(warnings.filter((r) => r.msg === "rpc url failed; failing over")).toEqual([]);
      expect(warnings.filter((r) => r.msg === "rpc request failed; retrying")).toEqual([]);
      expect(
        warnings.filter((r) => r.msg === "rpc url is rate limited; pacing its calls to the rate it accepts")
          .length,
      ).toBeGreaterThan(0);
      const scrape = await createMetrics(run.indexing.views).registry.metrics();
      const pace = new RegExp(
        `^swapgraph_rpc_pace_calls_per_second\\{network="bsc",url="#0 ${new URL(run.emulator.url).host}"\\} ([\\d.]+)$`,
        "m",
      ).exec(scrape);
      expect(pace).not.toBeNull();
      expect(Number(pace![1])).toBeGreaterThan(0);
      expect(Number(pace![1])).toBeLessThanOrEqual(40);
      expect(scrape).toMatch(/^swapgraph_rpc_rate_limit_episodes_total\{network="bsc"\} [1-9]/m);
      expect(run.indexing.views.status(NETWORK).degraded).toBe(false);
    } finally {
      await run.end();
    }
  }, 120_000);

  test("behavior: at 10 calls/s the checkpoint keeps advancing, the head poll is answered, the status says rate limited rather than degraded, nothing lost", async () => {
    const run = await startRun({ rateLimit: { callsPerSecond: 10, burst: 3, retryAfterSeconds: 1 } });
    try {
      const views = run.indexing.views;
      // The limit is met, and while the backfill runs the status says so.
      await waitFor(
        () => views.status(NETWORK).rpcRateLimit !== undefined,
        60_000,
        "the indexer to meet the rate limit",
      );
      let lastIndexed = views.status(NETWORK).indexedBlock ?? -1n;
      let advances = 0;
      let notes = 0;
      // Until the head: every observation (each at most 15 s apart, a bound for a loaded
      // machine) sees the head answered within its quiet limit and no degraded status.
      await waitFor(
        () => {
          const status = views.status(NETWORK);
          expect(status.degraded).toBe(false);
          expect(Date.now() - (status.headCheckedAt ?? 0)).toBeLessThan(15_000);
          if (buildRateLimitNote(status)?.startsWith("rate limited at ~") === true) notes++;
          if ((status.indexedBlock ?? -1n) > lastIndexed) {
            advances++;
            lastIndexed = status.indexedBlock!;
          }
          return status.ready && status.indexedBlock === head;
        },
        150_000,
        "the indexer to reach the head at 10 calls/s",
      );
      expect(advances).toBeGreaterThan(0);
      expect(notes).toBeGreaterThan(0);
      expect(run.emulator.usage().faults.rateLimit).toBeGreaterThan(0);
      expect(await run.trades()).toEqual(reference);
      expect(run.warnings().length).toBeLessThan(100);
    } finally {
      await run.end();
    }
  }, 240_000);
});
