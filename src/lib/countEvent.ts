/**
 * Event counters of the process and their label names. /metrics publishes each as
 * `swapgraph_<name>_total`; label values come from fixed sets (network names, the JSON-RPC
 * methods swapgraph sends, error kinds, cache names), never from a URL or a client's input.
 */
export const EVENT_COUNTERS = {
  trades_indexed: ["network"],
  reorgs: ["network"],
  rpc_requests: ["network", "method"],
  rpc_errors: ["network", "method", "kind"],
  rpc_rate_limited: ["network", "method"],
  rpc_rate_limit_episodes: ["network"],
  rpc_log_range_shrinks: ["network"],
  rpc_batch_splits: ["network"],
  rpc_connection_resends: ["network"],
  pool_creation_lookups: ["network", "how"],
  cache_hits: ["cache"],
  cache_misses: ["cache"],
  http_refusals: ["reason"],
  graphql_client_budget: ["outcome"],
  swap_hours_rendered: ["network", "by"],
} as const;

/** One of EVENT_COUNTERS. */
export type EventCounter = keyof typeof EVENT_COUNTERS;

/** The labels a counter takes. */
export type EventLabels<N extends EventCounter> = Record<(typeof EVENT_COUNTERS)[N][number], string>;

/** One labelled series of a counter. */
export interface EventCount {
  labels: Record<string, string>;
  value: number;
}

// Process-wide on purpose, not injected: /metrics publishes the process, as prom-client's
// default registry does, and the counting code sits deep in every part (RPC client, log
// fetcher, indexer, route and answer caches, HTTP refusals), so a counter object handed down
// would widen a dozen factories' deps for no second registry anyone needs. The price: counts
// add up across tests in one worker, so tests compare readEventCounts before and after.
const counts = new Map<EventCounter, Map<string, EventCount>>(
  Object.keys(EVENT_COUNTERS).map((name) => [name as EventCounter, new Map()]),
);

// The series of `labels`, made (at 0) on first use.
function seriesOf<N extends EventCounter>(name: N, labels: EventLabels<N>): EventCount {
  const values = labels as Record<string, string>;
  let key = "";
  for (const label of EVENT_COUNTERS[name]) key += `${values[label]}\u0000`;
  const series = counts.get(name)!;
  let entry = series.get(key);
  if (entry === undefined) {
    entry = { labels: { ...values }, value: 0 };
    series.set(key, entry);
  }
  return entry;
}

/** Adds `by` (default 1) to a counter's series; cheap enough for per-request paths. */
export function countEvent<N extends EventCounter>(name: N, labels: EventLabels<N>, by = 1): void {
  seriesOf(name, labels).value += by;
}

/**
 * countEvent of one fixed series, for the hottest paths (a kept answer sent): the series is
 * looked up once, on its first count, and then only added to.
 */
export function boundEventCount<N extends EventCounter>(
  name: N,
  labels: EventLabels<N>,
): (by?: number) => void {
  let entry: EventCount | undefined;
  return (by = 1) => {
    entry ??= seriesOf(name, labels);
    entry.value += by;
  };
}

/** The series of a counter so far (for /metrics and tests). */
export function readEventCounts(name: EventCounter): EventCount[] {
  return [...counts.get(name)!.values()].map((entry) => ({
    labels: { ...entry.labels },
    value: entry.value,
  }));
}
