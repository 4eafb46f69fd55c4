import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { findFreePort } from "@swapgraph/devnet/anvil/findFreePort.js";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { statusOf } from "./startSwapgraphProcess.js";

/**
 * `npx tsx bench/memoryProbe.ts` (issue 28): swapgraph's memory after the backfill of a dense bsc
 * day, by size. Per size one devnet (50 swaps a block in 22 h, built once), then each build of
 * PROBE_DISTS (folders made by `node scripts/build.mjs --out-dir <dir>`, default dist) started on
 * it in turn, alternating over PROBE_ROUNDS rounds, each on a fresh SQLite store. Per run, read
 * through bench/memoryReporter.mjs (preloaded, IPC): the memory at the first /ready 200, after
 * PROBE_IDLE_S seconds of idling (default 30) and after a full collection (PROBE_SNAPSHOT=1 writes
 * a heap snapshot then), with /proc's anonymous RSS and peak RSS (VmHWM) and the log lines of the
 * process's own collections. One JSON line per run. A variant "dir~--node-flag~ENV=value" runs a
 * build with extra node flags and environment.
 * PROBE_SIZES=20000,100000,200000 PROBE_DISTS=dist-before,dist PROBE_ROUNDS=2 npx tsx bench/memoryProbe.ts
 */
const ROOT = new URL("..", import.meta.url).pathname;
const sizes = (process.env.PROBE_SIZES ?? "20000").split(",").map(Number);
const dists = (process.env.PROBE_DISTS ?? "dist").split(",");
const rounds = Number(process.env.PROBE_ROUNDS ?? 1);
const idleSeconds = Number(process.env.PROBE_IDLE_S ?? 30);
const snapshot = process.env.PROBE_SNAPSHOT === "1";
const outDir = process.env.PROBE_OUT ?? join(tmpdir(), "swapgraph-memory-probe");
mkdirSync(outDir, { recursive: true });

/** MB of the process's resident memory by kind, and its peak (Linux /proc). */
function procMemory(pid: number): Record<string, number> {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (text: string, key: string) =>
    Math.round(Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1]) / 1024);
  return {
    anonymous: kb(rollup, "Anonymous"),
    fileBacked: kb(rollup, "Rss") - kb(rollup, "Anonymous"),
    peakRss: kb(status, "VmHWM"),
  };
}

function memory(
  child: ChildProcess,
  options: { collect?: boolean; snapshot?: string } = {},
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const answer = (message: { type?: string }) => {
      if (message.type !== "memory") return;
      child.off("message", answer);
      resolve({ ...message, ...procMemory(child.pid!) });
    };
    child.on("message", answer);
    child.send({ type: "memory", ...options });
  });
}

async function runOne(entry: string, manifestPath: string, size: number, round: number): Promise<void> {
  const [dist = "dist", ...extras] = entry.split("~");
  const nodeFlags = extras.filter((e) => e.startsWith("--"));
  const extraEnv = Object.fromEntries(extras.filter((e) => !e.startsWith("--")).map((e) => e.split("=")));
  const dataDir = mkdtempSync(join(tmpdir(), "swapgraph-memory-data-"));
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "SWAPGRAPH_CONFIG", "SWAPGRAPH_ROLE", "HOST", "NODE_OPTIONS"])
    delete env[key];
  Object.assign(env, {
    NODE_ENV: "production",
    PORT: String(port),
    SWAPGRAPH_DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...extraEnv,
  });
  const started = performance.now();
  const reporter = join(ROOT, "bench", "memoryReporter.mjs");
  const child = spawn(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      reporter,
      ...nodeFlags,
      join(ROOT, dist, "start.js"),
      "--config",
      manifestPath,
    ],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe", "ipc"] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l));
  createInterface({ input: child.stdout! }).on("line", (l) => lines.push(l));
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error(`exited before ready:\n${lines.slice(-20).join("\n")}`);
      if ((await statusOf(`http://127.0.0.1:${port}/ready`)) === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const readyS = (performance.now() - started) / 1000;
    const readyWall = Date.now();
    const atReady = await memory(child);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idle = await memory(child);
    const afterGc = await memory(child, {
      collect: true,
      ...(snapshot
        ? { snapshot: join(outDir, `${entry.replaceAll(/[^\w.-]+/g, "_")}-${size}-${round}.heapsnapshot`) }
        : {}),
    });
    const settles = lines
      .filter((l) => l.includes("collected the garbage"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .map(({ after, heapUsedMb, heapUsedAfterMb, rssAfterMb, ms, time }) => ({
        after,
        heapUsedMb,
        heapUsedAfterMb,
        rssAfterMb,
        ms,
        sinceReadyS: Math.round((Number(time) - readyWall) / 100) / 10,
      }));
    console.log(
      JSON.stringify({
        dist: entry,
        size,
        round,
        readyS: Number(readyS.toFixed(1)),
        atReady,
        idle,
        afterGc,
        settles,
      }),
    );
  } finally {
    child.kill("SIGTERM");
    if (!exited) await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const size of sizes) {
  const devDir = mkdtempSync(join(tmpdir(), "swapgraph-memory-devnet-"));
  const built = performance.now();
  const devnet = await startDevnet({
    networks: ["bsc"],
    liveIntervalMs: 0,
    dataDir: devDir,
    profile: "dense",
    swapsPerNetwork: size,
    swapsPerBlock: 50,
    // 22 h: every trade stays in the 24-hour window for the two hours the runs may take.
    days: 22 / 24,
  });
  console.error(
    `devnet ${size}: ${((performance.now() - built) / 1000).toFixed(0)} s, ${devnet.chains[0]!.history.blocks} blocks`,
  );
  try {
    for (let round = 0; round < rounds; round++)
      for (const dist of round % 2 === 0 ? dists : [...dists].reverse())
        await runOne(dist, devnet.manifestPath, size, round);
  } finally {
    await devnet.stop();
    rmSync(devDir, { recursive: true, force: true });
  }
}
