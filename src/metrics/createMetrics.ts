import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from "prom-client";
import type { NetworkName } from "../domain/types.js";
import { EVENT_COUNTERS, type EventCounter, readEventCounts } from "../lib/countEvent.js";
import { type PaceState, RPC_PACES } from "../lib/rpcPaces.js";
import type { MarketReader } from "../views/types.js";

/**
 * Prometheus metrics of the process: Node's standard process metrics, indexing state per network
 * (read at scrape), event counters (trades, reorgs, RPC calls and errors, cache lookups) and HTTP
 * answers and timings.
 */
export interface Metrics {
  registry: Registry;
  /**
   * Records one answered request (swapgraph_http_responses_total and the duration histogram);
   * `route` must come from a fixed set (bounded label values); "aborted" is a streamed answer
   * that was cut off (client gone, or an error after the first byte).
   */
  observe(route: string, status: number | "aborted", seconds: number): void;
}

const EVENT_HELP: Record<EventCounter, string> = {
  trades_indexed: "Trades committed by this process's indexer.",
  reorgs:
    "Reorgs this process's indexer detected (each rolls back, or halts when deeper than finalityDepth).",
  rpc_requests: "JSON-RPC calls sent, by method: every attempt at every URL, each call of a batch counted.",
  rpc_errors:
    "JSON-RPC calls that failed, by method and kind (timeout, transient, range, revert, fatal; batch: the call's batch was refused for its size and sent again smaller).",
  rpc_rate_limited:
    "JSON-RPC calls the provider refused for its rate limit (HTTP 429 or its words for it), by method; the client waits (Retry-After) and retries.",
  rpc_rate_limit_episodes:
    "Times an RPC URL became rate limited (its first limit answer after a quiet spell): one log line each, and the URL's calls are paced (swapgraph_rpc_pace_calls_per_second).",
  rpc_log_range_shrinks:
    "Times the eth_getLogs block range shrank because the provider refused a range (too many blocks, logs or bytes).",
  rpc_batch_splits:
    "Times a provider refused a JSON-RPC batch for its size and the client went on with smaller batches.",
  rpc_connection_resends:
    "JSON-RPC requests sent again at once on a new connection because their connection closed before any answer (a server closing an idle keep-alive connection as the request went out); not counted against the URL.",
  pool_creation_lookups:
    "Pools whose creation log (DEX Screener's createdAt* fields) was looked up, by how: whole_chain (one eth_getLogs over the chain for the pools admitted together), search (the provider caps eth_getLogs ranges: creation block bisected on the pool's nonce, eth_getTransactionCount), unknown (capped ranges and no state at old blocks: left out).",
  cache_hits:
    "Lookups answered by a cache (route: best routes; graphql_answer: GraphQL answers kept at the edge; rest_answer: REST answers kept at the edge; both in the one store of market answers).",
  cache_misses: "Lookups a cache could not answer.",
  http_refusals:
    "Requests the HTTP edge answered 503 to protect the others (connection_cap: past http.maxConnections; answer_deadline: no answer begun within http.answerDeadlineMs).",
  graphql_client_budget:
    "GraphQL operations by what the per-client budget did (immediate: ran at once; queued: waited for the client's budget or a free slot; refused: answered 429).",
  swap_hours_rendered:
    "Settled hours of /api/swaps_24h rendered and kept on disk, by who rendered them (background: before any download asked; download: a download that found the hour not kept).",
};

/** Creates the registry served on /metrics. */
export function createMetrics(reader: MarketReader): Metrics {
  const registry = new Registry();
  // Standard names (process_cpu_seconds_total, nodejs_heap_size_used_bytes...): stock Node
  // dashboards work as they are; the job/instance labels tell processes apart.
  collectDefaultMetrics({ register: registry });

  // The counts live in the process (countEvent); a scrape copies them.
  for (const name of Object.keys(EVENT_COUNTERS) as EventCounter[]) {
    new Counter({
      name: `swapgraph_${name}_total`,
      help: EVENT_HELP[name],
      labelNames: [...EVENT_COUNTERS[name]],
      registers: [registry],
      collect() {
        this.reset();
        for (const { labels, value } of readEventCounts(name)) this.inc(labels, value);
      },
    });
  }

  registerNetworkGauges(registry, reader);
  registerPaceGauges(registry);

  const timings = registerHttpTimings(registry);
  return { registry, observe: timings.observe };
}

const DURATION = "swapgraph_http_request_duration_seconds";
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The answers of one route and status: counts per duration bucket (not cumulative), their sum and count. */
interface TimingSeries {
  labels: { route: string; status: string };
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * swapgraph_http_request_duration_seconds (histogram) and swapgraph_http_responses_total, counted
 * per request into one series object per route and status (found by two Map lookups) and turned
 * into Prometheus series at scrape. prom-client's Histogram checked the labels and built a hash
 * string on every observation: the largest piece of swapgraph's own work per kept answer. The
 * histogram is a metric object of the registry's (what `get()` returns is what prom-client's own
 * Histogram returns, bucket counts cumulative, `+Inf` the count); the counter is prom-client's,
 * copied from the counts at scrape.
 */
function registerHttpTimings(registry: Registry): Pick<Metrics, "observe"> {
  const series = new Map<string, Map<number | "aborted", TimingSeries>>();
  const all = () => [...series.values()].flatMap((byStatus) => [...byStatus.values()]);
  const help = "Time to answer an HTTP request, by route and status.";
  const histogram = {
    name: DURATION,
    help,
    type: "histogram",
    aggregator: "sum",
    async get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const { labels, buckets, sum, count } of all()) {
        let below = 0;
        for (const [i, bound] of DURATION_BUCKETS.entries()) {
          below += buckets[i]!;
          values.push({ labels: { le: bound, ...labels }, value: below, metricName: `${DURATION}_bucket` });
        }
        values.push({ labels: { le: "+Inf", ...labels }, value: count, metricName: `${DURATION}_bucket` });
        values.push({ labels: { ...labels }, value: sum, metricName: `${DURATION}_sum` });
        values.push({ labels: { ...labels }, value: count, metricName: `${DURATION}_count` });
      }
      return { name: DURATION, help, type: "histogram", values, aggregator: "sum" };
    },
    reset() {
      series.clear();
    },
  };
  // Not one of prom-client's classes (the registry's type names those): a metric is what the
  // registry reads with get() and clears with reset().
  registry.registerMetric(histogram as unknown as Metric);
  new Counter({
    name: "swapgraph_http_responses_total",
    help: "HTTP answers, by route and status.",
    labelNames: ["route", "status"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, count } of all()) this.inc(labels, count);
    },
  });
  return {
    observe(route, status, seconds) {
      let byStatus = series.get(route);
      if (byStatus === undefined) {
        byStatus = new Map();
        series.set(route, byStatus);
      }
      let timing = byStatus.get(status);
      if (timing === undefined) {
        timing = {
          labels: { route, status: String(status) },
          buckets: DURATION_BUCKETS.map(() => 0),
          sum: 0,
          count: 0,
        };
        byStatus.set(status, timing);
      }
      let i = 0;
      while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
      // Past the last bound: counted in +Inf (the count) only.
      if (i < DURATION_BUCKETS.length) timing.buckets[i]!++;
      timing.sum += seconds;
      timing.count++;
    },
  };
}

function toNumber(value: bigint | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** Per-network gauges, read at scrape time from `reader`. */
function registerNetworkGauges(registry: Registry, reader: MarketReader): void {
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
  perNetwork("swapgraph_subscriptions", "Open GraphQL subscriptions (SSE streams).", (n) =>
    reader.subscriberCount(n),
  );
  perNetwork(
    "swapgraph_swaps_24h",
    "Trades in the last 24 hours (an index count in the store).",
    (n, nowMs) => reader.countTrades(n, Math.floor(nowMs / 1000) - 86_400),
  );
}

/** Per-RPC-URL pace gauges, read at scrape time from the process-wide pacers. */
function registerPaceGauges(registry: Registry): void {
  // Each RPC URL's pacer (process-wide, as the counters): the pace learned from the provider's
  // answers, and whether it limits now. Labels: the network and the URL's index and host (never
  // its path, where API keys live).
  const perUrl = (name: string, help: string, read: (state: PaceState) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ["network", "url"],
      registers: [registry],
      collect() {
        this.reset();
        for (const state of RPC_PACES.values()) {
          const value = read(state);
          if (value !== undefined) this.set({ network: state.network, url: state.label }, value);
        }
      },
    });
  perUrl(
    "swapgraph_rpc_pace_calls_per_second",
    "Calls a second an RPC URL's pacer lets through: learned from the provider's rate-limit answers (absent while the URL is unpaced).",
    (state) => state.perSecond,
  );
  perUrl(
    "swapgraph_rpc_rate_limited",
    "1 while an RPC URL is rate limited (from its first limit answer until 30 s without one), else 0.",
    (state) => (state.limited ? 1 : 0),
  );
}
