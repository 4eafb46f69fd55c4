import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { createPublicClient, http } from "viem";
import { pairEventsAbi } from "../src/chain/abis.js";
import { createIndexing } from "../src/createIndexing.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";

/**
 * Backfill throughput against the raw eth_getLogs rate of the same chain, measured in one run:
 * the ratio says how much the indexer (decode, group, price, commit) costs over fetching alone.
 */
export async function benchBackfill(options: { swaps: number }): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-"));
  const started = performance.now();
  const devnet = await startDevnet({
    networks: ["bsc"],
    swapsPerNetwork: options.swaps,
    liveIntervalMs: 0,
    dataDir: dir,
  });
  const devnetSeconds = (performance.now() - started) / 1000;
  try {
    const config = devnet.networks[0]!;
    const client = createPublicClient({ transport: http(config.rpcUrls[0]) });
    const head = await client.getBlockNumber();

    const rawStart = performance.now();
    const logs = await client.getLogs({ events: pairEventsAbi, fromBlock: 0n, toBlock: head });
    const rawSeconds = (performance.now() - rawStart) / 1000;

    const store = createSqliteStore({ path: join(dir, "bench.sqlite") });
    await store.migrate();
    const silent = { info() {}, warn() {}, error() {} };
    let trades = 0;
    let seconds = 0;
    await new Promise<void>((resolve) => {
      const indexing = createIndexing({
        networks: [{ ...config, startBlock: 1n }],
        store,
        log: silent,
        onProgress: (p) => {
          if (!p.done) return;
          trades = p.trades;
          seconds = p.elapsedMs / 1000;
          void indexing.stop().then(resolve);
        },
      });
      indexing.start();
    });
    await store.close();
    return {
      devnetSeconds: Number(devnetSeconds.toFixed(1)),
      blocks: Number(head),
      logs: logs.length,
      rawGetLogsSeconds: Number(rawSeconds.toFixed(3)),
      rawLogsPerSecond: Math.round(logs.length / rawSeconds),
      trades,
      backfillSeconds: Number(seconds.toFixed(3)),
      backfillTradesPerSecond: Math.round(trades / seconds),
      backfillLogsPerSecond: Math.round(logs.length / seconds),
      "backfill/raw (logs/s ratio)": Number((logs.length / seconds / (logs.length / rawSeconds)).toFixed(3)),
    };
  } finally {
    await devnet.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchBackfill({ swaps: Number(process.env.BENCH_SWAPS ?? 3000) });
  console.table(result);
}
