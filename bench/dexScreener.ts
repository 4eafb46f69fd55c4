import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";

/** One line of the DEX Screener table. */
export interface DexScreenerRow {
  target: string;
  "req/s": number;
  "p50 ms": number;
  "p99 ms": number;
  errors: number;
  "vs bare": string;
}

/**
 * GET /dexscreener/bsc/events over the newest 1,000 blocks of a demo devnet (V2 and V3 pools,
 * read from SQLite, streamed page by page) against bare node:http answering the same bytes, both
 * under autocannon (the answer is then kept for its indexed block), and the same answer made
 * fresh (ranges not asked before, one client: store pages read and rendered); the servers run in a
 * child process (bench/dexScreenerServer.ts).
 */
export async function benchDexScreener(options: { seconds: number; connections: number }): Promise<{
  rows: DexScreenerRow[];
  answer: { blocks: number; events: number; bytes: number; freshMs: number };
}> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", new URL("./dexScreenerServer.ts", import.meta.url).pathname],
    { env: { ...process.env, NODE_ENV: "production" }, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`bench/dexScreenerServer.ts exited with ${code}`)));
  });
  const started = JSON.parse(line) as {
    swapgraphUrl: string;
    bareUrl: string;
    paths: { tip: string; settled: string };
    tip: number;
    blocks: number;
    events: number;
    bytes: number;
  };
  try {
    const run = async (target: string, url: string) => {
      const result = await autocannon({ url, connections: options.connections, duration: options.seconds });
      return {
        target,
        "req/s": Math.round(result.requests.average),
        "p50 ms": result.latency.p50,
        "p99 ms": result.latency.p99,
        errors: result.non2xx + result.errors + result.timeouts,
      };
    };
    // Made fresh: 1,000-block ranges not asked before (each one block lower), one request at a time.
    const fresh: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const to = started.tip - i;
      const begun = performance.now();
      const answer = await fetch(
        `${started.swapgraphUrl}/dexscreener/bsc/events?fromBlock=${Math.max(1, to - 999)}&toBlock=${to}`,
      );
      await answer.arrayBuffer();
      fresh.push(performance.now() - begun);
    }
    fresh.sort((a, b) => a - b);
    const freshMs = fresh[3]!;
    const { swapgraphUrl, bareUrl, paths } = started;
    // Warm up (JIT, kept answers) before measuring.
    await autocannon({
      url: `${swapgraphUrl}${paths.settled}`,
      connections: options.connections,
      duration: 2,
    });
    const rows = [
      await run("bare node:http, same bytes", `${bareUrl}${paths.settled}`),
      await run("events, settled 1,000 blocks (kept)", `${swapgraphUrl}${paths.settled}`),
      await run("events, newest 1,000 blocks (kept one poll)", `${swapgraphUrl}${paths.tip}`),
    ];
    const bare = rows[0]!["req/s"];
    const freshRow = {
      target: "events, 1,000 blocks made fresh (1 client)",
      "req/s": Math.round(1000 / freshMs),
      "p50 ms": Math.round(freshMs),
      "p99 ms": Math.round(fresh.at(-1)!),
      errors: 0,
    };
    return {
      rows: [...rows, freshRow].map((row) => ({ ...row, "vs bare": (row["req/s"] / bare).toFixed(2) })),
      answer: { blocks: started.blocks, events: started.events, bytes: started.bytes, freshMs },
    };
  } finally {
    child.stdin!.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}
