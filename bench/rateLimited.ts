import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createProviderEmulator,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { SHARED_TOKEN_BUCKETS } from "../src/chain/getSharedTokenBucket.js";
import type { NetworkConfig } from "../src/config/types.js";
import { createIndexing } from "../src/createIndexing.js";
import { RPC_PACES } from "../src/lib/rpcPaces.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../src/store/types.js";
import { listAllTrades } from "../test/support/listAllTrades.js";

/** One row of the rate-limit table: one run of the demo's networks through the emulators. */
export interface RateLimitedRow {
  provider: string;
  "s to ready": number;
  calls: number;
  "429 answers": number;
  "calls/s sent": number;
  "warn lines": number;
  trades: number;
  "same as unlimited": string;
}

interface RunResult {
  row: Omit<RateLimitedRow, "same as unlimited">;
  keys: Set<string>;
}

/** The trades a store holds, keyed by network, transaction and log index. */
async function tradeKeys(store: Store, networks: readonly NetworkConfig[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const network of networks) {
    for (const trade of await listAllTrades(store, network.name, 0)) {
      keys.add(`${network.name}:${trade.txHash}:${trade.logIndex}`);
    }
  }
  return keys;
}

async function run(
  label: string,
  networks: readonly NetworkConfig[],
  callsPerSecond: number | undefined,
): Promise<RunResult> {
  // Each run is a process of its own: nothing learned by the last one carries over.
  SHARED_TOKEN_BUCKETS.clear();
  RPC_PACES.clear();
  const emulators: ProviderEmulator[] = [];
  for (const network of networks) {
    emulators.push(
      await createProviderEmulator({
        upstream: network.rpcUrls[0]!,
        faults:
          callsPerSecond === undefined
            ? {}
            : { rateLimit: { callsPerSecond, burst: 3, retryAfterSeconds: 1 } },
      }),
    );
  }
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  let warnLines = 0;
  const messages = new Map<string, number>();
  const { pino } = await import("pino");
  const log = pino(
    { level: "warn" },
    {
      write: (line: string) => {
        warnLines++;
        const { msg } = JSON.parse(line) as { msg?: string };
        messages.set(msg ?? "", (messages.get(msg ?? "") ?? 0) + 1);
        if (process.env.BENCH_RATELIMIT_WARNINGS === "1" && (messages.get(msg ?? "") ?? 0) <= 3)
          process.stdout.write(line);
      },
    },
  );
  const configs = networks.map((network, i) => ({ ...network, rpcUrls: [emulators[i]!.url] }));
  const indexing = createIndexing({ networks: configs, store, log });
  const started = performance.now();
  indexing.start();
  try {
    // Ready: every network backfilled to the head the emulator shows (generous bound).
    const deadline = Date.now() + 15 * 60_000;
    while (!configs.every((config) => indexing.views.status(config.name).ready)) {
      if (Date.now() > deadline) throw new Error(`${label}: not ready within 15 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const usages = emulators.map((emulator) => emulator.usage());
    const calls = usages.reduce((sum, usage) => sum + usage.total.calls, 0);
    const limited = usages.reduce((sum, usage) => sum + usage.faults.rateLimit, 0);
    const keys = await tradeKeys(store, configs);
    if (process.env.BENCH_RATELIMIT_WARNINGS === "1") console.log(label, Object.fromEntries(messages));
    return {
      row: {
        provider: label,
        "s to ready": Number(seconds.toFixed(1)),
        calls,
        "429 answers": limited,
        "calls/s sent": Number(((calls + limited) / seconds / networks.length).toFixed(1)),
        "warn lines": warnLines,
        trades: keys.size,
      },
      keys,
    };
  } finally {
    await indexing.stop();
    await store.close();
    for (const emulator of emulators) await emulator.close();
  }
}

/**
 * The demo's three networks (the chains `npm start` builds, no live trading) indexed from scratch
 * through one provider emulator each: without a limit, then with HTTP 429 + Retry-After: 1 above
 * `callsPerSecond` calls a second on each URL (issue 25: "at 25 calls/s the demo's backfill
 * finishes under the limit, nothing lost, fewer than 100 warn lines").
 */
export async function benchRateLimited(options: { limits: readonly number[] }): Promise<RateLimitedRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "swapgraph-bench-ratelimit-"));
  const devnet = await startDevnet({ liveIntervalMs: 0, dataDir });
  try {
    const reference = await run("no limit", devnet.networks, undefined);
    const rows: RateLimitedRow[] = [{ ...reference.row, "same as unlimited": "reference" }];
    for (const limit of options.limits) {
      const limited = await run(`429 above ${limit} calls/s per URL`, devnet.networks, limit);
      const same =
        limited.keys.size === reference.keys.size &&
        [...reference.keys].every((key) => limited.keys.has(key));
      rows.push({ ...limited.row, "same as unlimited": same ? "yes" : "NO" });
    }
    return rows;
  } finally {
    await devnet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
