import { rmSync } from "node:fs";
import type { Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import type { pino } from "pino";
import { loadConfig } from "./config/loadConfig.js";
import { redactSecrets } from "./config/redactSecrets.js";
import type { AppConfig, NetworkConfig } from "./config/types.js";
import { createIndexing, type Indexing } from "./createIndexing.js";
import { createLogger } from "./createLogger.js";
import { ConfigError, SwapgraphError } from "./errors.js";
import { createLazyGraphqlServer } from "./graphql/createLazyGraphqlServer.js";
import { createHttpServer } from "./http/createHttpServer.js";
import type { IndexerProgress } from "./indexer/createIndexerContext.js";
import { loadDevnet } from "./loadDevnet.js";
import { type SettledMemory, settleMemoryAfterBackfill } from "./settleMemoryAfterBackfill.js";
import { createStore } from "./store/createStore.js";
import { createSettledSwapHours } from "./views/answers/createSettledSwapHours.js";

/** The composition root: config -> (demo chains) -> store -> indexers + live views -> HTTP. */
async function main(): Promise<void> {
  const { config, demo } = loadConfig(process.env, process.argv.slice(2));
  // Human lines on a terminal, JSON otherwise; secrets redacted from every line.
  const log = createLogger({ level: config.logLevel });
  const cleanups: (() => Promise<void>)[] = [];
  let stopping = false;
  let draining = false;
  let drainServer: ((timeoutMs: number) => Promise<void>) | undefined;
  let indexingViews: Indexing["views"] | undefined;

  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    // A process manager's SIGTERM drains: /ready turns 503 so load balancers move on, then the
    // server stops accepting and lets the requests in flight finish (Ctrl-C does not wait).
    if (signal === "SIGTERM" && drainServer !== undefined) {
      draining = true;
      await new Promise((resolve) => setTimeout(resolve, config.http.drainDelayMs));
      // Subscriptions never finish on their own: complete them so their clients reconnect to
      // another replica and the drain waits only for ordinary requests.
      indexingViews?.feed.close();
      await drainServer(config.http.drainTimeoutMs);
    }
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error: unknown) => log.error({ err: String(error) }, "shutdown step failed"));
    }
    process.exit(0);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGHUP", () => void shutdown("SIGHUP"));

  // Fail before the slow part (building the demo chains) if the port is taken.
  await assertPortFree(config.http.host, config.http.port);

  const networks = demo ? await startDemo(config.store, log, cleanups) : config.networks;

  const store = createStore(config.store);
  await store.migrate();
  cleanups.push(() => store.close());

  const progress = createProgressLog(log);
  const indexing = createIndexing({ networks, store, log, role: config.role, onProgress: progress });
  indexingViews = indexing.views;
  cleanups.push(() => indexing.stop());
  // The settled hours of /api/swaps_24h, rendered once as the views learn they settled (stopped,
  // and their files removed, before the indexing stops).
  const swapHours =
    config.http.swapsCacheDir === undefined
      ? undefined
      : createSettledSwapHours({ views: indexing.views, dir: config.http.swapsCacheDir, logger: log });
  if (swapHours !== undefined) cleanups.push(async () => swapHours.close());
  // Each network's backfill garbage given back as it turns ready, then the hours' first rendering's.
  settleMemoryAfterBackfill({
    views: indexing.views,
    ...(swapHours === undefined ? {} : { swapHours }),
    onSettled: createSettledLog(log),
  });

  // Built on its first request or, at the latest, just after the banner (below): the start does
  // not wait for yoga, the schema and the persisted operations (docs/benchmarks.md, Start).
  const graphql = createLazyGraphqlServer({
    reader: indexing.views,
    logger: log,
    persistedOperationsOnly: config.http.persistedOperationsOnly,
    clientBudget: {
      costPerSecond: config.http.graphqlCostPerSecond,
      costBurst: config.http.graphqlCostBurst,
      aloneCostPerSecond: config.http.graphqlAloneCostPerSecond,
      concurrency: config.http.graphqlConcurrency,
      queueLength: config.http.graphqlQueueLength,
      maxWaitMs: config.http.graphqlMaxWaitMs,
    },
  });
  const { server } = await createHttpServer({
    maxConnections: config.http.maxConnections,
    connectionShare: config.http.connectionShare,
    listBudget: { bytesPerSecond: config.http.listBytesPerSecond, burstBytes: config.http.listBurstBytes },
    answerDeadlineMs: config.http.answerDeadlineMs,
    ...(swapHours === undefined ? {} : { swapHours }),
    ...(config.http.rateLimitPerSecond > 0
      ? {
          rateLimit: {
            perSecond: config.http.rateLimitPerSecond,
            trustProxy: config.http.trustProxy,
            ...(config.http.rateLimitBurst === undefined ? {} : { burst: config.http.rateLimitBurst }),
          },
        }
      : {}),
    trustProxy: config.http.trustProxy,
    draining: () => draining,
    reader: indexing.views,
    graphql,
    logger: log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.http.port, config.http.host, () => resolve());
  });
  drainServer = (timeoutMs) => closeServer(server, timeoutMs);
  cleanups.push(() => closeServer(server, 0));
  const { port } = server.address() as AddressInfo;
  const base = `http://${config.http.host === "0.0.0.0" ? "127.0.0.1" : config.http.host}:${port}`;
  indexing.start();

  printBanner(base, networks, config.store.kind);
  // Then the GraphQL server, so the first /graphql after the start finds it built; a failure
  // here is the first request's to report (it builds again).
  setTimeout(() => void graphql.load().catch(() => undefined), GRAPHQL_WARM_DELAY_MS);
}

// After the first probes: a load balancer's /health right after the start is not kept waiting
// behind the build (about 150 ms of CPU), which the first /graphql would otherwise pay.
const GRAPHQL_WARM_DELAY_MS = 200;

/** Starts the embedded demo's anvil chains (stopped by a cleanup) and returns their networks. */
async function startDemo(
  store: AppConfig["store"],
  log: pino.Logger,
  cleanups: (() => Promise<void>)[],
): Promise<readonly NetworkConfig[]> {
  const started = Date.now();
  // Loaded only here: a start with a configuration file never loads the devnet's code. An install
  // without it (the production image) stops here with a ConfigError, before any demo line.
  const { startDevnet } = await loadDevnet();
  log.info("no configuration file: starting the embedded demo (anvil chains with seven days of trading)");
  const devnet = await startDevnet({
    liveIntervalMs: 3_000,
    log: (message: string) => log.info(message),
  });
  cleanups.push(() => devnet.stop());
  log.info({ manifest: devnet.manifestPath, seconds: (Date.now() - started) / 1000 }, "demo chains ready");
  // The demo chains are new on every start, so is the demo store.
  if (store.kind === "sqlite") rmSync(store.path, { force: true });
  for (const suffix of ["-wal", "-shm"]) {
    if (store.kind === "sqlite") rmSync(store.path + suffix, { force: true });
  }
  // The devnet's configuration pins compute units (its tests count reads by that model); the
  // demo runs as a configuration without rpc.costModel would: "auto", here time (a local node).
  return devnet.networks.map((network) => ({
    ...network,
    rpc: { ...network.rpc, costModel: "auto" as const },
  }));
}

/**
 * Stops accepting connections, lets requests in flight finish for up to `timeoutMs`, closing
 * keep-alive connections as they fall idle, then closes whatever is left.
 */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const deadline = Date.now() + timeoutMs;
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  await Promise.race([
    closed,
    new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
  ]);
  clearInterval(idle);
  server.closeAllConnections();
  await closed;
}

/** Throws a ConfigError that says what to do when the HTTP port is already taken. */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new ConfigError(`Port ${port} on ${host} is already in use: stop the other process or set PORT.`)
          : new ConfigError(`Cannot listen on ${host}:${port}: ${error.message}`),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Logs backfill progress per network at most every two seconds, and once when it reaches the head. */
function createProgressLog(log: pino.Logger): (progress: IndexerProgress) => void {
  const lastAt = new Map<string, number>();
  return (p) => {
    const now = Date.now();
    if (!p.done && now - (lastAt.get(p.network) ?? 0) < 2_000) return;
    lastAt.set(p.network, now);
    const total = p.headBlock - p.fromBlock;
    const percent = total > 0n ? Number(((p.indexedBlock - p.fromBlock) * 100n) / total) : 100;
    log.info(
      {
        network: p.network,
        block: p.indexedBlock.toString(),
        head: p.headBlock.toString(),
        percent,
        trades: p.trades,
        seconds: Math.round(p.elapsedMs) / 1000,
        tradesPerSecond: Math.round((p.trades * 1000) / Math.max(1, p.elapsedMs)),
      },
      p.done ? "backfill reached the head" : "backfill progress",
    );
  };
}

/** Logs what each collection after bulk work gave back (settleMemoryAfterBackfill). */
function createSettledLog(log: pino.Logger): (settled: SettledMemory) => void {
  const mb = (bytes: number) => Math.round(bytes / 1_048_576);
  return (s) =>
    log.info(
      {
        network: s.network,
        after: s.after,
        heapUsedMb: mb(s.heapUsedBefore),
        heapUsedAfterMb: mb(s.heapUsedAfter),
        rssAfterMb: mb(s.rssAfter),
        ms: Math.round(s.ms),
      },
      "collected the garbage of the bulk work",
    );
}

main().catch((error: unknown) => {
  const message = error instanceof SwapgraphError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`swapgraph failed to start: ${redactSecrets(message)}\n`);
  process.exit(1);
});

/** What `npm start` prints once it serves: where everything is, and commands to try. */
function printBanner(base: string, networks: readonly { name: string }[], storeKind: string): void {
  const lines = [
    `swapgraph is serving on ${base} (${networks.map((n) => n.name).join(", ")}; store: ${storeKind})`,
    `  start here: ${base}/   (links to everything below)`,
    `  API docs:   ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
    `  GraphiQL:   ${base}/graphql`,
    `  readiness:  ${base}/ready   (503 until every network's backfill is done)`,
    "  try:",
    `    curl '${base}/api/quote?sellToken=BNB&buyToken=USDT'`,
    `    curl '${base}/api/quote?network=eth&sellToken=WETH&buyToken=USDC'`,
    `    curl '${base}/api/swaps_24h?network=polygon'`,
    `    curl '${base}/api/trade_volume_usd_7d'`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
