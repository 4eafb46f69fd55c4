import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { MarketReader } from "../domain/market.js";
import type { NetworkName } from "../domain/types.js";

/** Prometheus metrics of the process: indexing state per network (read at scrape) and HTTP timings. */
export interface Metrics {
  registry: Registry;
  /**
   * Records one answered request; `route` must come from a fixed set (bounded label values);
   * "aborted" is a streamed answer that was cut off (client gone, or an error after the first byte).
   */
  observe(route: string, status: number | "aborted", seconds: number): void;
}

/** Creates the registry served on /metrics. */
export function createMetrics(reader: MarketReader): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "swapgraph_" });

  // Read at scrape time. A failed read (the store is down) leaves that series out of this scrape
  // rather than failing the whole scrape: the other metrics are what tells an operator why.
  const perNetwork = (
    name: string,
    help: string,
    read: (network: NetworkName, nowMs: number) => number | undefined | Promise<number | undefined>,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ["network"],
      registers: [registry],
      async collect() {
        const nowMs = Date.now();
        const networks = reader.networks();
        const values = await Promise.allSettled(networks.map((network) => read(network, nowMs)));
        this.reset();
        values.forEach((value, i) => {
          if (value.status === "fulfilled" && value.value !== undefined) {
            this.set({ network: networks[i]! }, value.value);
          }
        });
      },
    });
  perNetwork("swapgraph_indexed_block", "Last block committed by the indexer.", (n) =>
    toNumber(reader.status(n).indexedBlock),
  );
  perNetwork("swapgraph_head_block", "Chain head seen by the indexer.", (n) =>
    toNumber(reader.status(n).headBlock),
  );
  perNetwork("swapgraph_lag_blocks", "Blocks between the indexed block and the head.", (n) =>
    toNumber(reader.status(n).lagBlocks),
  );
  perNetwork(
    "swapgraph_ready",
    "1 when the network finished its backfill once and is not halted (what /ready checks).",
    (n) => {
      const status = reader.status(n);
      return status.ready && !status.halted ? 1 : 0;
    },
  );
  perNetwork(
    "swapgraph_degraded",
    "1 while the head cannot be refreshed (RPC outage, or the writing process is gone); data still served until stale.",
    (n) => (reader.status(n).degraded ? 1 : 0),
  );
  perNetwork(
    "swapgraph_halted",
    "1 after a reorg deeper than the finality depth (503 until an operator acts).",
    (n) => (reader.status(n).halted ? 1 : 0),
  );
  perNetwork(
    "swapgraph_data_age_seconds",
    "Seconds since the indexed block last equalled the chain head (absent until it first did).",
    (n, nowMs) => {
      const { syncedAt } = reader.status(n);
      return syncedAt === undefined ? undefined : Math.max(0, (nowMs - syncedAt) / 1000);
    },
  );
  perNetwork("swapgraph_pools", "Indexed pools.", (n) => reader.getPoolIndex(n).all().length);
  perNetwork(
    "swapgraph_swaps_24h",
    "Trades in the last 24 hours (an index count in the store).",
    (n, nowMs) => reader.countTrades(n, Math.floor(nowMs / 1000) - 86_400),
  );

  const requests = new Histogram({
    name: "swapgraph_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route and status.",
    labelNames: ["route", "status"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  return {
    registry,
    observe(route, status, seconds) {
      requests.observe({ route, status: String(status) }, seconds);
    },
  };
}

function toNumber(value: bigint | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}
