import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import { startTestDevnet } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { spawnSwapgraph } from "../support/spawnSwapgraph.js";
import { subscribeSse } from "../support/sse.js";
import { waitFor } from "../support/waitFor.js";

let devnet: Devnet;
let dataDir: string;

// A process test starts swapgraph (twice for the restart), each start waiting up to 60 s for its
// banner and 60 s for /ready, then its exit: the bound is that sum, not the 60 s default. At load
// average 37 on 2 cores (the Node 24 CI run) the restart test overran 60 s; 44 s at load average 13.
const PROCESS_TEST_TIMEOUT_MS = 300_000;

const RECORD_MODULES = new URL("../support/recordModules.mjs", import.meta.url).pathname;

/** Runs the real entry point on a config file, as an operator would, and waits for its banner. */
async function startMain(env: Record<string, string>, args: string[], entry?: string[]) {
  const run = spawnSwapgraph({
    args,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env },
    ...(entry === undefined ? {} : { entry }),
  });
  return { ...run, base: await run.serving };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-main-"));
  // The suite's shared one-network devnet (300 swaps), loaded from the run's cache when built.
  devnet = await startTestDevnet({ seed: 23, dataDir });
});

afterAll(async () => {
  await devnet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the swapgraph process", () => {
  test(
    "behavior: indexes the chains a config file names, serves them, shuts down cleanly and resumes",
    async () => {
      const env = { SWAPGRAPH_DATA_DIR: join(dataDir, "store") };
      const modulesFile = join(dataDir, "modules.txt");
      const first = await startMain(
        { ...env, SWAPGRAPH_RECORD_MODULES: modulesFile },
        ["--config", devnet.manifestPath],
        ["--import", "tsx", "--import", RECORD_MODULES, "src/start.ts"],
      );
      await waitFor(async () => (await fetch(`${first.base}/ready`)).status === 200, 60_000, "/ready");
      // A start with a configuration file never loads the devnet (main imports it only for the demo).
      const modules = readFileSync(modulesFile, "utf8").split("\n");
      expect(modules).toContain(new URL("../../src/main.ts", import.meta.url).href);
      expect(modules.filter((url) => url.includes("/src/indexer/")).length).toBeGreaterThan(5);
      expect(modules.filter((url) => url.includes("/packages/devnet/"))).toEqual([]);
      const quote = await fetch(`${first.base}/api/quote?sellToken=BNB&buyToken=USDT`);
      expect(quote.status).toBe(200);
      expect(((await quote.json()) as { result: { network: string } }).result.network).toBe("bsc");
      expect(first.output.some((line) => line.includes("backfill reached the head"))).toBe(true);

      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(first.output.some((line) => line.includes('"signal":"SIGTERM"'))).toBe(true);

      // The store on disk holds the trades and the checkpoint.
      const store = createSqliteStore({ path: join(dataDir, "store", "swapgraph.sqlite") });
      await store.migrate();
      const trades = await listAllTrades(store, "bsc", 0);
      const checkpoint = await store.getCheckpoint("bsc");
      await store.close();
      expect(trades.length).toBeGreaterThan(150);

      // A restart resumes from the checkpoint: no new backfill, same answers.
      const second = await startMain(env, ["--config", devnet.manifestPath]);
      await waitFor(async () => (await fetch(`${second.base}/ready`)).status === 200, 60_000, "/ready again");
      expect(second.output.some((line) => line.includes("backfill starts"))).toBe(false);
      const swaps = (await (await fetch(`${second.base}/api/swaps_24h`)).json()) as unknown[];
      expect(swaps.length).toBeGreaterThan(0);
      const status = (await (
        await fetch(`${second.base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ status { indexedBlock } }" }),
        })
      ).json()) as { data: { status: { indexedBlock: string }[] } };
      expect(BigInt(status.data.status[0]!.indexedBlock)).toBeGreaterThanOrEqual(checkpoint!.blockNumber);
      second.child.kill("SIGINT");
      expect(await second.exited).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "behavior: SIGTERM drains: /ready turns 503, new connections stop, the request in flight completes",
    async () => {
      const manifest = JSON.parse(readFileSync(devnet.manifestPath, "utf8")) as Record<string, unknown>;
      const path = join(dataDir, "drain.json");
      writeFileSync(
        path,
        JSON.stringify({ ...manifest, http: { drainDelayMs: 1_000, drainTimeoutMs: 20_000 } }),
      );
      const run = await startMain({ SWAPGRAPH_DATA_DIR: join(dataDir, "drain-store") }, ["--config", path]);
      await waitFor(async () => (await fetch(`${run.base}/ready`)).status === 200, 60_000, "/ready");

      // A request in flight: a GraphQL POST whose body is still on its way when SIGTERM arrives.
      const { hostname, port } = new URL(run.base);
      const body = JSON.stringify({ query: "{ status { network ready } }" });
      const socket = connect(Number(port), hostname);
      await new Promise((resolve) => socket.once("connect", resolve));
      const answer = new Promise<string>((resolve) => {
        let text = "";
        socket.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        socket.on("close", () => resolve(text));
      });
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      // A subscription never ends on its own: the drain must complete it rather than wait for it.
      const subscription = await subscribeSse(
        run.base,
        "subscription { networkStatus(network: bsc) { indexedBlock } }",
      );
      await waitFor(() => subscription.results.length > 0, 10_000, "the first status");
      let subscriptionEnded = false;
      void subscription.ended.then(() => {
        subscriptionEnded = true;
      });
      run.child.kill("SIGTERM");
      await waitFor(async () => (await fetch(`${run.base}/ready`)).status === 503, 10_000, "/ready 503");
      // Then the server stops accepting: a new connection is refused.
      await waitFor(
        async () => {
          try {
            await fetch(`${run.base}/health`);
            return false;
          } catch {
            return true;
          }
        },
        10_000,
        "new connections refused",
      );
      // While the request is still in flight, the subscription's stream is already complete.
      await waitFor(() => subscriptionEnded, 10_000, "the subscription completed by the drain");
      socket.write(body.slice(10));
      const text = await answer;
      expect(text.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
      expect(text).toContain('"network":"bsc"');
      expect(await run.exited).toBe(0);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test("error: a bad configuration stops the process with a message that names the field", async () => {
    const bad = join(dataDir, "bad.json");
    writeFileSync(bad, JSON.stringify({ networks: [{ name: "bsc", chainId: 56, rpcUrls: ["nope"] }] }));
    const run = spawnSwapgraph({ args: ["--config", bad] });
    expect(await run.exited).toBe(1);
    const stderr = run.output.join("\n");
    expect(stderr).toContain("swapgraph failed to start: Invalid configuration in");
    expect(stderr).toContain("networks.0.rpcUrls.0: expected an http(s) URL");
    expect(stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  test("error: a taken port stops the process at once, before the demo chains are built", async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    const run = spawnSwapgraph({
      env: { ...process.env, PORT: String(port), SWAPGRAPH_DATA_DIR: join(dataDir, "taken") },
    });
    const code = await run.exited;
    taken.close();
    expect(code).toBe(1);
    const stderr = run.output.join("\n");
    expect(stderr).toContain(
      `Port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT.`,
    );
    // Before the demo: its first line never came (a time bound here failed on a loaded machine).
    expect(stderr).not.toContain("starting the embedded demo");
    expect(stderr).not.toContain("demo chains ready");
  });
});
