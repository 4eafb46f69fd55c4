import { Histogram, Registry } from "prom-client";
import { describe, expect, onTestFinished, test } from "vitest";
import { countEvent } from "../../src/lib/countEvent.js";
import { createMetrics } from "../../src/metrics/createMetrics.js";
import { createTestServer } from "../http/support.js";
import { createFixtureReader } from "../support/fixtureReader.js";

/** The value of one series in a Prometheus text exposition (0 when absent). */
function seriesValue(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("createMetrics", () => {
  test("behavior: Node's default metrics keep their standard names", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const text = await createMetrics(reader).registry.metrics();
    for (const name of [
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "process_start_time_seconds",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
      "nodejs_gc_duration_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).not.toMatch(/^swapgraph_(process|nodejs)_/m);
  });

  test("behavior: the event counters and HTTP answers are exposed with their labels", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const metrics = createMetrics(reader);
    const before = await metrics.registry.metrics();
    countEvent("trades_indexed", { network: "bsc" }, 7);
    countEvent("reorgs", { network: "bsc" });
    countEvent("rpc_requests", { network: "bsc", method: "eth_getLogs" }, 3);
    countEvent("rpc_errors", { network: "bsc", method: "eth_getLogs", kind: "range" });
    metrics.observe("/api/quote", 200, 0.002);
    metrics.observe("/api/quote", 200, 0.001);
    metrics.observe("/api/quote", 400, 0.001);
    const after = await metrics.registry.metrics();
    const moved = (series: string) => seriesValue(after, series) - seriesValue(before, series);
    expect(moved('swapgraph_trades_indexed_total{network="bsc"}')).toBe(7);
    expect(moved('swapgraph_reorgs_total{network="bsc"}')).toBe(1);
    expect(moved('swapgraph_rpc_requests_total{network="bsc",method="eth_getLogs"}')).toBe(3);
    expect(moved('swapgraph_rpc_errors_total{network="bsc",method="eth_getLogs",kind="range"}')).toBe(1);
    expect(moved('swapgraph_http_responses_total{route="/api/quote",status="200"}')).toBe(2);
    expect(moved('swapgraph_http_responses_total{route="/api/quote",status="400"}')).toBe(1);
    for (const name of ["swapgraph_cache_hits_total", "swapgraph_cache_misses_total"]) {
      expect(after).toContain(`# TYPE ${name} counter`);
    }
  });

  test("behavior: the request duration histogram is exposed as prom-client's Histogram exposes the same observations", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const metrics = createMetrics(reader);
    const reference = new Registry();
    const histogram = new Histogram({
      name: "swapgraph_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route and status.",
      labelNames: ["route", "status"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [reference],
    });
    // On the bounds, between them, past the last one; several routes and statuses.
    const observations: [string, number | "aborted", number][] = [
      ["/api/quote", 200, 0.0004],
      ["/api/quote", 200, 0.0005],
      ["/api/quote", 200, 0.003],
      ["/api/quote", 304, 0.001],
      ["/graphql", 200, 0.02],
      ["/graphql", "aborted", 3],
      ["/api/swaps_24h", 200, 2.5],
      ["other", 404, 0.0001],
    ];
    for (const [route, status, seconds] of observations) {
      metrics.observe(route, status, seconds);
      histogram.observe({ route, status: String(status) }, seconds);
    }
    const lines = (text: string) =>
      text
        .split("\n")
        .filter(
          (line) =>
            line.startsWith("swapgraph_http_request_duration_seconds") ||
            line.includes(" swapgraph_http_request_duration_seconds "),
        );
    const exposed = lines(await metrics.registry.metrics());
    // HELP and TYPE, then per route and status 12 buckets, +Inf, sum and count.
    expect(exposed).toHaveLength(2 + 6 * 15);
    expect(exposed).toEqual(lines(await reference.metrics()));
    const responses = await metrics.registry.getSingleMetricAsString("swapgraph_http_responses_total");
    expect(responses).toContain('swapgraph_http_responses_total{route="/api/quote",status="200"} 3');
    expect(responses).toContain('swapgraph_http_responses_total{route="/graphql",status="aborted"} 1');
  });

  test("behavior: the route and GraphQL answer caches count their hits and misses", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const metrics = createMetrics(reader);
    const app = await createTestServer(reader, { metrics });
    onTestFinished(() => app.close());
    const post = async (query: string, variables: Record<string, unknown> = {}) =>
      (
        await app.inject({
          method: "POST",
          url: "/graphql",
          headers: { "content-type": "application/json", accept: "application/json" },
          payload: JSON.stringify({ query, variables }),
        })
      ).json() as { errors?: unknown[] };
    const query = `query Q($sell: String!, $buy: String!) { quote(sellToken: $sell, buyToken: $buy) { price } }`;
    const before = await metrics.registry.metrics();
    for (const buy of ["USDT", "USDT", "USDT"]) {
      expect((await post(query, { sell: "BNB", buy })).errors).toBeUndefined();
    }
    // A status query is never kept: it is neither a hit nor a miss.
    await post("{ status { network } }");
    const after = await metrics.registry.metrics();
    const moved = (series: string) => seriesValue(after, series) - seriesValue(before, series);
    expect(moved('swapgraph_cache_misses_total{cache="graphql_answer"}')).toBe(1);
    expect(moved('swapgraph_cache_hits_total{cache="graphql_answer"}')).toBe(2);
    expect(moved('swapgraph_cache_misses_total{cache="route"}')).toBeGreaterThanOrEqual(1);
  });
});
