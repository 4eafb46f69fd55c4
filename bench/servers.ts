import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { pino } from "pino";
import { GRAPHQL_BUDGET_DEFAULTS } from "../src/config/networkConfigSchema.js";
import { createIndexing } from "../src/createIndexing.js";
import { createGraphqlServer } from "../src/graphql/createGraphqlServer.js";
import { buildSchema } from "../src/graphql/schema/buildSchema.js";
import { createHttpServer } from "../src/http/createHttpServer.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import { POOLS_QUERY } from "./poolsQuery.js";
import { STATS_QUERY } from "./statsQuery.js";

// The servers under load, in a process of their own so the load generator does not share its event loop.
const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-http-"));
const devnet = await startDevnet({
  networks: ["bsc"],
  swapsPerNetwork: 1000,
  liveIntervalMs: 0,
  dataDir: dir,
});
const store = createSqliteStore({ path: ":memory:" });
await store.migrate();
const silent = pino({ level: "silent" });
const indexing = createIndexing({
  networks: devnet.networks,
  store,
  log: { info() {}, warn() {}, error() {} },
});
indexing.start();
const schema = buildSchema();
const { server: swapgraph } = await createHttpServer({
  reader: indexing.views,
  graphql: createGraphqlServer({ reader: indexing.views, schema, logger: silent }),
  logger: silent,
});
await new Promise<void>((resolve) => swapgraph.listen(0, "127.0.0.1", resolve));
const swapgraphUrl = `http://127.0.0.1:${(swapgraph.address() as AddressInfo).port}`;
// The same API with the per-client GraphQL budget at its configured defaults, for
// bench/fairness.ts (the server above has none, like the bench's other targets);
// BENCH_GRAPHQL_COST_PER_SECOND, _COST_BURST, _CONCURRENCY, _QUEUE_LENGTH, _MAX_WAIT_MS try others.
const fromEnv = (name: string, fallback: number) => Number(process.env[`BENCH_GRAPHQL_${name}`] ?? fallback);
const budget = {
  costPerSecond: fromEnv("COST_PER_SECOND", GRAPHQL_BUDGET_DEFAULTS.costPerSecond),
  costBurst: fromEnv("COST_BURST", GRAPHQL_BUDGET_DEFAULTS.costBurst),
  aloneCostPerSecond: fromEnv("ALONE_COST_PER_SECOND", GRAPHQL_BUDGET_DEFAULTS.aloneCostPerSecond),
  concurrency: fromEnv("CONCURRENCY", GRAPHQL_BUDGET_DEFAULTS.concurrency),
  queueLength: fromEnv("QUEUE_LENGTH", GRAPHQL_BUDGET_DEFAULTS.queueLength),
  maxWaitMs: fromEnv("MAX_WAIT_MS", GRAPHQL_BUDGET_DEFAULTS.maxWaitMs),
};
const { server: budgeted } = await createHttpServer({
  reader: indexing.views,
  graphql: createGraphqlServer({ reader: indexing.views, schema, logger: silent, clientBudget: budget }),
  logger: silent,
});
await new Promise<void>((resolve) => budgeted.listen(0, "127.0.0.1", resolve));
const budgetUrl = `http://127.0.0.1:${(budgeted.address() as AddressInfo).port}`;
// The same API with a list budget (bench/run.ts's /api/swaps_24h row) that the bench's one client
// cannot spend: the row measures the list route with the budget's hook at work but never refusing
// (on the server above the default budget refuses that client within a second, 429s all along).
const { server: listServer } = await createHttpServer({
  reader: indexing.views,
  graphql: createGraphqlServer({ reader: indexing.views, schema, logger: silent }),
  logger: silent,
  listBudget: { bytesPerSecond: 2 ** 40, burstBytes: 2 ** 40 },
});
await new Promise<void>((resolve) => listServer.listen(0, "127.0.0.1", resolve));
const listUrl = `http://127.0.0.1:${(listServer.address() as AddressInfo).port}`;
for (;;) {
  // A kept-alive socket the server closed as it was reused fails a poll: that is "not yet".
  const ready = await fetch(`${swapgraphUrl}/ready`).then(
    (response) => response.status === 200,
    () => false,
  );
  if (ready) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
// The reference: bare node:http answering the very bytes /api/quote answers.
const quote = await fetch(`${swapgraphUrl}/api/quote?sellToken=CAKE&buyToken=USDT`);
const bytes = Buffer.from(await quote.arrayBuffer());
// And, at /stats, the very bytes of the market-stats query's answer (bench/run.ts STATS_QUERY).
const statsAnswer = await fetch(`${swapgraphUrl}/graphql`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query: STATS_QUERY }),
});
const statsBytes = Buffer.from(await statsAnswer.arrayBuffer());
// And, at /pools, the bytes of the pools page (bench/run.ts's pools row).
const poolsAnswer = await fetch(`${swapgraphUrl}/graphql`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ query: POOLS_QUERY }),
});
const poolsBytes = Buffer.from(await poolsAnswer.arrayBuffer());
// And, at /api/swaps_24h, the bytes of the demo's swap list (as it was at start: its window moves).
const listBytes = Buffer.from(await (await fetch(`${listUrl}/api/swaps_24h`)).arrayBuffer());
const bare = createServer((req, res) => {
  const body = req.url?.startsWith("/stats")
    ? statsBytes
    : req.url?.startsWith("/pools")
      ? poolsBytes
      : req.url?.startsWith("/api/swaps_24h")
        ? listBytes
        : bytes;
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
// BENCH_PROFILE=dir: a CPU profile of the serving phase only (not the devnet set-up).
const profileDir = process.env.BENCH_PROFILE;
let stopProfile: (() => Promise<void>) | undefined;
if (profileDir !== undefined && profileDir !== "") {
  const { Session } = await import("node:inspector/promises");
  const { writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  stopProfile = async () => {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(join(profileDir, `serve-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}
// What a bench needs to trade on the chain itself (bench/subscriptions.ts mines swaps).
const chain = devnet.networks[0]!;
const swap = {
  rpcUrl: chain.rpcUrls[0],
  router: chain.dexes[0]!.router,
  wrapped: chain.native.wrapped,
  stable: chain.stablecoins[0],
  trader: devnet.chains[0]!.traders[0],
};
process.stdout.write(
  `${JSON.stringify({ swapgraphUrl, budgetUrl, listUrl, budget, bareUrl, quoteBytes: bytes.length, statsBytes: statsBytes.length, poolsBytes: poolsBytes.length, listBytes: listBytes.length, swap })}\n`,
);

const stop = async () => {
  await stopProfile?.();
  bare.close();
  for (const server of [swapgraph, budgeted, listServer]) {
    server.closeAllConnections();
    server.close();
  }
  await indexing.stop();
  await store.close();
  await devnet.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
// "heap" on stdin: the live heap after a full collection (run with --expose-gc), as a JSON line;
// "memory": RSS and heap as they are (no collection first), as a JSON line; "cpu": the process's CPU time.
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "cpu") {
    // User and system CPU of this process in µs: steadier per answer than req/s on a shared machine.
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMicros: user + system })}\n`);
    return;
  }
  if (line === "memory") {
    const { rss, heapUsed, heapTotal } = process.memoryUsage();
    process.stdout.write(`${JSON.stringify({ rss, heapUsed, heapTotal })}\n`);
    return;
  }
  if (line !== "heap") return;
  (globalThis as { gc?: () => void }).gc?.();
  process.stdout.write(`${JSON.stringify({ heapUsed: process.memoryUsage().heapUsed })}\n`);
});
