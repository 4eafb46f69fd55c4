import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { type SwapgraphProcess, startSwapgraphProcess } from "./startSwapgraphProcess.js";

/** One start of each: bare Node's and swapgraph's. */
export interface StartRow {
  run: number;
  "node -e to listening, ms": number;
  "swapgraph to serving, ms": number;
  "to first answer, ms": number;
  ratio: string;
  "CPU to serving, ms": number | string;
  "RSS at serving, MB": number | string;
  "load average": string;
}

const ROOT = new URL("..", import.meta.url).pathname;

// The reference: Node's own start to a listening node:http server, announced on stdout as
// swapgraph announces its own.
const BARE = `require("node:http").createServer((q, s) => s.end("ok")).listen(0, "127.0.0.1", function () {
  console.log("listening on " + this.address().port);
});`;

/** Spawn to the first stdout line of a bare node:http server, in ms. */
async function bareStart(): Promise<number> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ["-e", BARE], { stdio: ["ignore", "pipe", "inherit"] });
  const listeningAt = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", () => resolve(performance.now()));
    child.once("exit", (code) => reject(new Error(`bare node exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return listeningAt - spawnedAt;
}

/**
 * `npm start -- --config config/mainnet.json` (the production build, real chains' configuration)
 * from spawn to the "swapgraph is serving on" banner and to its first answer (/health), next to
 * bare Node's start to a listening node:http server, alternated `runs` times. Every RPC URL points
 * at a local server that refuses (401): nothing leaves the machine, and indexing, which starts
 * after the banner, fails without delaying it.
 */
export async function benchStart(options: { runs: number }): Promise<StartRow[]> {
  const refusing = createServer((_, res) => res.writeHead(401).end());
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  const closed = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  const rows: StartRow[] = [];
  try {
    for (let run = 1; run <= options.runs; run++) {
      const bareMs = await bareStart();
      const dataDir = mkdtempSync(join(tmpdir(), "swapgraph-bench-start-"));
      const child = await startSwapgraphProcess({
        configPath: join(ROOT, "config", "mainnet.json"),
        dataDir,
        env: { SWAPGRAPH_RPC_BSC: closed, SWAPGRAPH_RPC_ETH: closed, SWAPGRAPH_RPC_POLYGON: closed },
      });
      try {
        const servingAt = await waitForBanner(child);
        const cpu = child.cpuMs();
        const rss = child.rssBytes();
        const health = await fetch(`${child.baseUrl}/health`);
        await health.arrayBuffer();
        const answeredAt = performance.now();
        const servingMs = servingAt - child.spawnedAt;
        rows.push({
          run,
          "node -e to listening, ms": Math.round(bareMs),
          "swapgraph to serving, ms": Math.round(servingMs),
          "to first answer, ms": Math.round(answeredAt - child.spawnedAt),
          ratio: (servingMs / bareMs).toFixed(1),
          "CPU to serving, ms": cpu === undefined ? "-" : Math.round(cpu),
          "RSS at serving, MB": rss === undefined ? "-" : Math.round(rss / 2 ** 20),
          "load average": loadavg()[0]!.toFixed(1),
        });
      } finally {
        await child.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    refusing.close();
  }
  return rows;
}

/** performance.now() when the banner was read (polled: the child reads its stdout as it comes). */
async function waitForBanner(child: SwapgraphProcess): Promise<number> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const at = child.servingAt();
    if (at !== undefined) return at;
    if (performance.now() > deadline) throw new Error(`swapgraph did not serve within 60 s\n${child.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
