import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { get, request } from "node:http";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { findFreePort } from "@swapgraph/devnet/anvil/findFreePort.js";
import { spawnWatchdog } from "@swapgraph/devnet/anvil/spawnWatchdog.js";

const TEMPLATES = new URL("./ponder/", import.meta.url).pathname;
const INSTALL_MANIFEST = join(TEMPLATES, "install.package.json");
/** The app's files, each written from `<file>.template` beside it. */
const APP_FILES = [
  "ponder.config.ts",
  "ponder.schema.ts",
  "abis/PairAbi.ts",
  "src/index.ts",
  "src/api/index.ts",
];

/** The exact Ponder version the bench installs (bench/ponder/install.package.json). */
export const PONDER_VERSION = (
  JSON.parse(readFileSync(INSTALL_MANIFEST, "utf8")) as { dependencies: Record<string, string> }
).dependencies.ponder!;

/**
 * Ponder installed from the npm registry into a cache directory outside the repository
 * (BENCH_PONDER_CACHE, default ~/.cache/swapgraph-bench/ponder-<version>), reused when present.
 * Returns the directory whose node_modules holds it.
 */
export async function ensurePonderInstalled(log: (message: string) => void): Promise<string> {
  const dir =
    process.env.BENCH_PONDER_CACHE ??
    join(homedir(), ".cache", "swapgraph-bench", `ponder-${PONDER_VERSION}`);
  const wanted = readFileSync(INSTALL_MANIFEST, "utf8");
  const installed = join(dir, "node_modules", "ponder", "package.json");
  const manifest = join(dir, "package.json");
  if (existsSync(installed) && existsSync(manifest) && readFileSync(manifest, "utf8") === wanted) {
    const version = (JSON.parse(readFileSync(installed, "utf8")) as { version: string }).version;
    if (version === PONDER_VERSION) return dir;
  }
  log(`ponder: installing ponder@${PONDER_VERSION} into ${dir} (npm)`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(manifest, wanted);
  try {
    await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 600_000,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`npm install of ponder@${PONDER_VERSION} in ${dir} failed: ${stderr || message}`);
  }
  return dir;
}

/** What the Ponder app indexes: the chain, the V2 factories whose pairs' Swaps it stores, from which block. */
export interface PonderAppOptions {
  chainId: number;
  rpcUrl: string;
  factories: readonly string[];
  startBlock: number;
  /** Ponder's maxRequestsPerSecond (undefined: its default, 50). */
  maxRequestsPerSecond?: number | undefined;
}

/** Writes the Ponder app into `appDir` from bench/ponder/*.template, its node_modules linked to the install. */
export function writePonderApp(appDir: string, installDir: string, options: PonderAppOptions): void {
  const values: Record<string, string> = {
    __CHAIN_ID__: JSON.stringify(options.chainId),
    __RPC_URL__: JSON.stringify(options.rpcUrl),
    __FACTORIES__: JSON.stringify(options.factories),
    __START_BLOCK__: JSON.stringify(options.startBlock),
    __MAX_REQUESTS_PER_SECOND__:
      options.maxRequestsPerSecond === undefined ? "undefined" : JSON.stringify(options.maxRequestsPerSecond),
  };
  for (const file of APP_FILES) {
    const text = readFileSync(join(TEMPLATES, `${file}.template`), "utf8").replace(
      /__[A-Z_]+__/g,
      (token) => values[token] ?? token,
    );
    mkdirSync(dirname(join(appDir, file)), { recursive: true });
    writeFileSync(join(appDir, file), text);
  }
  writeFileSync(
    join(appDir, "package.json"),
    JSON.stringify({ name: "swapgraph-bench-ponder-app", private: true, type: "module" }),
  );
  symlinkSync(join(installDir, "node_modules"), join(appDir, "node_modules"), "dir");
}

/** A `ponder start` child process. */
export interface PonderProcess {
  baseUrl: string;
  /** performance.now() just before the spawn. */
  spawnedAt: number;
  /** Resolves with performance.now() at the first /ready 200; rejects on timeout or exit. */
  waitForReady(timeoutMs: number): Promise<number>;
  /** The last lines of its output, for error messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL after 5 s; safe to call more than once. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every Ponder child still running; for signal handlers. */
export function killPonderProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** Starts `ponder start` (PGlite in the app's .ponder/, telemetry off) for the app in `appDir` on a free port. */
export async function startPonderProcess(appDir: string): Promise<PonderProcess> {
  // Once per process: a hook per start (each round starts Ponder anew) passed Node's 10 listeners.
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", killPonderProcesses);
  }
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // PGlite in the app directory, never a database a URL in the environment names.
  for (const key of ["DATABASE_URL", "DATABASE_PRIVATE_URL", "DATABASE_SCHEMA", "PORT"]) delete env[key];
  Object.assign(env, { NODE_ENV: "production", PONDER_TELEMETRY_DISABLED: "true" });
  const bin = join(appDir, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js");
  const spawnedAt = performance.now();
  const child = spawn(
    process.execPath,
    [bin, "--root", appDir, "--log-format", "json", "start", "--schema", "public", "--port", String(port)],
    { cwd: appDir, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  if (child.pid === undefined) throw new Error("ponder could not be started");
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
  createInterface({ input: child.stdout! }).on("line", remember);
  createInterface({ input: child.stderr! }).on("line", remember);

  const baseUrl = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    baseUrl,
    spawnedAt,
    tail: () => lastLines.join("\n"),
    async waitForReady(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        if (exitCode !== undefined) throw new Error(`ponder exited with ${exitCode} before /ready`);
        if ((await statusOf(`${baseUrl}/ready`)) === 200) return performance.now();
        if (performance.now() > deadline) throw new Error(`ponder not ready within ${timeoutMs} ms`);
        await Promise.race([new Promise((resolve) => setTimeout(resolve, 20)), exited]);
      }
    },
    stop() {
      stopping ??= (async () => {
        if (exitCode !== undefined) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

/** Swap rows Ponder stored, through its GraphQL API. */
export async function countPonderSwaps(baseUrl: string): Promise<number> {
  const text = await askPonder(
    `${baseUrl}/graphql`,
    JSON.stringify({ query: "{ swaps(limit: 1) { totalCount } }" }),
  );
  const body = JSON.parse(text) as { data?: { swaps?: { totalCount?: number } } };
  const count = body.data?.swaps?.totalCount;
  if (count === undefined) throw new Error(`ponder /graphql answered ${text.slice(0, 300)}`);
  return count;
}

/** What Ponder stored besides the swaps: its per-day and reserve rows. */
export interface PonderTables {
  /** Rows of pair_day (one per pair and UTC day). */
  days: number;
  /** The sum of their swap counts: the swap rows when every day row is right. */
  daySwaps: number;
  /** Rows of pair_reserve (one per pair that has had a Sync). */
  reserves: number;
}

/** Ponder's day and reserve rows, through its GraphQL API (the day rows paged 1,000 at a time). */
export async function countPonderTables(baseUrl: string): Promise<PonderTables> {
  interface Page {
    totalCount: number;
    items: { count: number }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  }
  let days = 0;
  let daySwaps = 0;
  let reserves = 0;
  let after: string | null = null;
  for (;;) {
    const query = `{ pairDays(limit: 1000${after === null ? "" : `, after: ${JSON.stringify(after)}`}) { totalCount items { count } pageInfo { hasNextPage endCursor } } pairReserves(limit: 1) { totalCount } }`;
    const text = await askPonder(`${baseUrl}/graphql`, JSON.stringify({ query }));
    const body = JSON.parse(text) as {
      data?: { pairDays?: Page; pairReserves?: { totalCount: number } };
    };
    const page = body.data?.pairDays;
    if (page === undefined || body.data?.pairReserves === undefined)
      throw new Error(`ponder /graphql answered ${text.slice(0, 300)}`);
    days = page.totalCount;
    reserves = body.data.pairReserves.totalCount;
    for (const item of page.items) daySwaps += item.count;
    if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) break;
    after = page.pageInfo.endCursor;
  }
  return { days, daySwaps, reserves };
}

/** The block Ponder has indexed up to (its /status), undefined before it has one. */
export async function ponderIndexedBlock(baseUrl: string): Promise<number | undefined> {
  const text = await askPonder(`${baseUrl}/status`);
  const status = JSON.parse(text) as Record<string, { block?: { number?: number } | null }> | null;
  const numbers = Object.values(status ?? {}).map((network) => network.block?.number);
  return numbers.length === 0 || numbers.some((n) => n === undefined)
    ? undefined
    : Math.min(...(numbers as number[]));
}

/** A GET, or a POST of `body`, on a new connection each time; resolves with the answer's text. */
function askPonder(url: string, body?: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = request(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        agent: false,
        headers: { "content-type": "application/json" },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${url} took over 60 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** The HTTP status of a GET (0 when nothing answers). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(url, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
  });
}
