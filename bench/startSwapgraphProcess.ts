import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { findFreePort } from "@swapgraph/devnet/anvil/findFreePort.js";
import { spawnWatchdog } from "@swapgraph/devnet/anvil/spawnWatchdog.js";

/** One JSON log line of the child (pino), with the bench clock's time it was read at. */
export interface ChildLogLine {
  readAt: number;
  line: Record<string, unknown>;
}

/** A swapgraph child process, as `npm start -- --config ...` runs it: the production build (dist/). */
export interface SwapgraphProcess {
  pid: number;
  baseUrl: string;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  /** performance.now() when the "swapgraph is serving on" banner was read: indexing has started. */
  servingAt(): number | undefined;
  /** Every JSON log line so far. */
  logs: ChildLogLine[];
  /** The last lines of stdout and stderr, for error messages. */
  tail(): string;
  /** Resolves with performance.now() at the first /ready 200; rejects on timeout or exit. */
  waitForReady(timeoutMs: number): Promise<number>;
  /** Resident set size from /proc/<pid>/status, in bytes (undefined off Linux). */
  rssBytes(): number | undefined;
  /** CPU time (user + system, every thread) from /proc/<pid>/stat, in ms (undefined off Linux). */
  cpuMs(): number | undefined;
  /** SIGTERM, then SIGKILL after 5 s; safe to call more than once. */
  stop(): Promise<void>;
}

const ROOT = new URL("..", import.meta.url).pathname;
let built = false;

/** The newest modification time of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/**
 * Builds dist/ (`npm run build`) when it is missing or older than src/, once a run: the bench
 * measures what `npm start` runs in production, not the TypeScript sources through tsx.
 */
function ensureBuilt(): void {
  if (built) return;
  const entry = join(ROOT, "dist", "start.js");
  if (!existsSync(entry) || newest(join(ROOT, "src")) > statSync(entry).mtimeMs) {
    const result = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (result.status !== 0)
      throw new Error("npm run build failed: the bench runs swapgraph's production build");
  }
  built = true;
}
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every swapgraph child still running; for signal handlers. */
export function killSwapgraphProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}

/**
 * Starts swapgraph on a free port with its SQLite store in `dataDir`, indexing what `configPath`
 * names; `env` adds variables (the configuration's SWAPGRAPH_RPC_<NETWORK> overrides).
 */
export async function startSwapgraphProcess(options: {
  configPath: string;
  dataDir: string;
  env?: Record<string, string>;
}): Promise<SwapgraphProcess> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", killSwapgraphProcesses);
  }
  const port = await findFreePort();
  // Only what this run sets: no database URL (a shared PostgreSQL would hold earlier runs' data).
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ["DATABASE_URL", "SWAPGRAPH_CONFIG", "SWAPGRAPH_ROLE", "HOST"]) delete env[key];
  Object.assign(env, {
    NODE_ENV: "production",
    PORT: String(port),
    SWAPGRAPH_DATA_DIR: options.dataDir,
    LOG_LEVEL: "info",
    ...options.env,
  });
  ensureBuilt();
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ["scripts/start.mjs", "--config", options.configPath], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error("swapgraph child could not be started");
  running.add(child);
  const watchdog = spawnWatchdog(child.pid);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exitCode = code ?? (signal === null ? null : -1);
      running.delete(child);
      watchdog?.kill("SIGKILL");
      resolve();
    });
  });

  const lastLines: string[] = [];
  const remember = (line: string) => {
    lastLines.push(line.length > 400 ? `${line.slice(0, 400)}...` : line);
    if (lastLines.length > 30) lastLines.shift();
  };
  const logs: ChildLogLine[] = [];
  let servingAt: number | undefined;
  createInterface({ input: child.stdout }).on("line", (line) => {
    const readAt = performance.now();
    if (line.startsWith("{")) {
      try {
        logs.push({ readAt, line: JSON.parse(line) as Record<string, unknown> });
      } catch {
        // Not JSON after all: keep it only in the tail.
      }
    } else if (servingAt === undefined && line.startsWith("swapgraph is serving on")) {
      servingAt = readAt;
    }
    remember(line);
  });
  createInterface({ input: child.stderr }).on("line", remember);

  const baseUrl = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (exitCode === undefined) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  return {
    pid: child.pid,
    baseUrl,
    spawnedAt,
    servingAt: () => servingAt,
    logs,
    tail: () => lastLines.join("\n"),
    async waitForReady(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        if (exitCode !== undefined) throw new Error(`swapgraph exited with ${exitCode} before /ready`);
        const status = await statusOf(`${baseUrl}/ready`);
        if (status === 200) return performance.now();
        if (performance.now() > deadline) throw new Error(`swapgraph not ready within ${timeoutMs} ms`);
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 20)), exited]);
      }
    },
    rssBytes() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
        return kb === undefined ? undefined : Number(kb) * 1024;
      } catch {
        return undefined;
      }
    },
    cpuMs() {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
      } catch {
        return undefined;
      }
    },
    stop,
  };
}

// Linux's USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second.
const CLOCK_TICKS = 100;

/** The HTTP status of a GET (0 when nothing answers). */
export function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
  });
}
