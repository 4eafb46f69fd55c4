import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type FaultProxy, startFaultProxy } from "../chain/faultProxy.js";
import { startTestDevnet } from "../support/devnet.js";
import { spawnSwapgraph } from "../support/spawnSwapgraph.js";
import { waitFor } from "../support/waitFor.js";

// What a hosted provider's URL carries: a key in the path and one in the query.
const KEY = "SECRETKEY0a1b2c3";
const QUERY_KEY = "SECRETQUERY9z8y";

let devnet: Devnet;
let proxy: FaultProxy;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-secrets-"));
  // The suite's small devnet (40 swaps by 8 traders), loaded from the run's cache when built.
  devnet = await startTestDevnet({ swapsPerNetwork: 40, traders: 8, dataDir });
  // anvil answers 404 on any path but /: the proxy forwards whatever the path to the chain.
  proxy = await startFaultProxy(devnet.networks[0]!.rpcUrls[0]!);
});

afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function status(base: string): Promise<{ network: string; error: string | null; ready: boolean }> {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ status { network error ready } }" }),
  });
  const body = (await response.json()) as {
    data: { status: { network: string; error: string | null; ready: boolean }[] };
  };
  return body.data.status[0]!;
}

describe("secrets in RPC URLs", () => {
  test("behavior: a key in an RPC URL never appears in logs, status or metrics", async () => {
    const { port } = new URL(proxy.url);
    // The provider refuses the head request (as for a bad key): viem's error text then names the
    // URL, the request body and viem's version, and the indexer logs it.
    proxy.rules.push({
      match: ({ method }) => method === "eth_blockNumber",
      fault: { kind: "status", status: 401 },
    });
    const run = spawnSwapgraph({
      args: ["--config", devnet.manifestPath],
      env: {
        ...process.env,
        PORT: "0",
        LOG_LEVEL: "debug",
        SWAPGRAPH_DATA_DIR: join(dataDir, "store"),
        SWAPGRAPH_RPC_BSC: `${proxy.url}/v3/${KEY}?apikey=${QUERY_KEY}`,
      },
    });
    const { output } = run;
    try {
      const base = await run.serving;

      await waitFor(async () => (await status(base)).error !== null, 30_000, "an RPC error in the status");
      const failing = await status(base);
      expect(failing.error).toBe("RPC unavailable: HTTP 401");
      // The log line that carried viem's whole message kept the host and lost the key.
      expect(output.some((line) => line.includes(`http://127.0.0.1:${port}/***`))).toBe(true);

      // The provider accepts again: the network catches up and every counter moves.
      proxy.rules.length = 0;
      await waitFor(async () => (await fetch(`${base}/ready`)).status === 200, 60_000, "/ready");
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(/^swapgraph_rpc_requests_total\{network="bsc",method="eth_getLogs"\} [1-9]/m);
      expect(metrics).toMatch(
        /^swapgraph_rpc_errors_total\{network="bsc",method="eth_blockNumber",kind="fatal"\} [1-9]/m,
      );
      expect(metrics).toMatch(/^swapgraph_trades_indexed_total\{network="bsc"\} [1-9]/m);
      expect(metrics).toMatch(/^process_cpu_seconds_total /m);

      const everything = [
        ...output,
        metrics,
        JSON.stringify(failing),
        JSON.stringify(await status(base)),
      ].join("\n");
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain(QUERY_KEY);
      expect(failing.error).not.toMatch(/viem@|Request body/);
    } finally {
      run.child.kill("SIGINT");
      await run.exited;
    }
    expect(output.join("\n")).not.toContain(KEY);
  });
});
