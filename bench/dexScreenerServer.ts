import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { pino } from "pino";
import { createIndexing } from "../src/createIndexing.js";
import { createGraphqlServer } from "../src/graphql/createGraphqlServer.js";
import { buildSchema } from "../src/graphql/schema/buildSchema.js";
import { createHttpServer } from "../src/http/createHttpServer.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";

// The server under load for bench/dexScreener.ts, in a process of its own: a bsc demo devnet (V2
// and V3 pools) indexed into SQLite, the real HTTP server, and bare node:http answering the very
// bytes of the events answer it measures. Prints one JSON line with both URLs and the answer's size.
const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-dex-"));
const devnet = await startDevnet({
  networks: ["bsc"],
  swapsPerNetwork: Number(process.env.BENCH_DEXSCREENER_SWAPS ?? 2400),
  // Two trades a block on average: the history spans more than the 1,000 blocks measured.
  swapsPerBlock: 2,
  liveIntervalMs: 0,
  dataDir: dir,
});
const store = createSqliteStore({ path: ":memory:" });
await store.migrate();
const silent = pino({ level: "silent" });
const config = { ...devnet.networks[0]!, startBlock: 1n, windowDays: 30 };
const indexing = createIndexing({ networks: [config], store, log: { info() {}, warn() {}, error() {} } });
indexing.start();
const schema = buildSchema();
const { server } = await createHttpServer({
  reader: indexing.views,
  graphql: createGraphqlServer({ reader: indexing.views, schema, logger: silent }),
  logger: silent,
  // The load's one address asks 3.4 MB answers hundreds of times a second: the default list
  // budget would refuse it within a second. Off: this measures the adapter, not that limit.
  listBudget: { bytesPerSecond: 2 ** 40, burstBytes: 2 ** 40 },
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const swapgraphUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
for (;;) {
  if ((await fetch(`${swapgraphUrl}/ready`)).status === 200) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const latest = (await (await fetch(`${swapgraphUrl}/dexscreener/bsc/latest-block`)).json()) as {
  block: { blockNumber: number };
};
// Two 1,000-block ranges: the newest (at the tip: kept for one poll of its indexed block) and the
// one ending a finality depth below it (settled: kept for good).
const tip = latest.block.blockNumber;
const settledTip = tip - config.finalityDepth;
const rangePath = (to: number) => `/dexscreener/bsc/events?fromBlock=${Math.max(1, to - 999)}&toBlock=${to}`;
const paths = { tip: rangePath(tip), settled: rangePath(settledTip) };
const answers = new Map<string, Buffer>();
for (const path of Object.values(paths)) {
  answers.set(path, Buffer.from(await (await fetch(`${swapgraphUrl}${path}`)).arrayBuffer()));
}
const tipBytes = answers.get(paths.tip)!;
const events = (JSON.parse(tipBytes.toString("utf8")) as { events: unknown[] }).events.length;
// Bare node:http answering the very bytes swapgraph answered for each path.
const bare = createServer((req, res) => {
  const bytes = answers.get(req.url ?? "") ?? tipBytes;
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length });
  res.end(bytes);
});
await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
process.stdout.write(
  `${JSON.stringify({ swapgraphUrl, bareUrl, paths, tip, blocks: Math.min(1000, tip), events, bytes: tipBytes.length })}\n`,
);

process.stdin.resume();
process.stdin.on("end", async () => {
  bare.close();
  server.closeAllConnections();
  server.close();
  await indexing.stop();
  await store.close();
  await devnet.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
