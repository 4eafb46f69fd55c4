import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { MarketReader } from "../domain/market.js";

/** Prometheus metrics of the process: indexing state per network (read at scrape) and HTTP timings. */
export interface Metrics {
  registry: Registry;
  /** Records one answered request; `route` must come from a fixed set (bounded label values). */
  observe(route: string, status: number, seconds: number): void;
}

/** Creates the registry served on /metrics. */
export function createMetrics(reader: MarketReader): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "swapgraph_" });

  const perNetwork = (
    name: string,
    help: string,
    read: (network: ReturnType<MarketReader["networks"]>[number]) => number | undefined,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ["network"],
      registers: [registry],
      collect() {
        this.reset();
        for (const network of reader.networks()) {
          const value = read(network);
          if (value !== undefined) this.set({ network }, value);
        }
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
    "1 when the network's backfill reached the head and it is not halted.",
    (n) => {
      const status = reader.status(n);
      return status.ready && status.error === undefined ? 1 : 0;
    },
  );
  perNetwork("swapgraph_pools", "Indexed pools.", (n) => reader.getPoolIndex(n).all().length);
  perNetwork("swapgraph_swaps_24h", "Trades in the last 24 hours.", (n) => {
    const now = Math.floor(Date.now() / 1000);
    return reader.listTrades(n, { from: now - 86_400, to: now + 1 }).length;
  });

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
