import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { waitFor } from "./waitFor.js";

const root = new URL("../..", import.meta.url).pathname;

/** A swapgraph process started by spawnSwapgraph. */
export interface SwapgraphProcess {
  child: ChildProcess;
  /** Its stdout and stderr lines, as they come. */
  output: string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves with the base URL of the banner; rejects, with the output, when it exits first or times out. */
  serving: Promise<string>;
}

/** Options of spawnSwapgraph. */
export interface SpawnSwapgraphOptions {
  /** Command-line arguments after the entry point (e.g. --config path). */
  args?: string[];
  /** The whole environment of the process (default: this one's, PORT=0). */
  env?: NodeJS.ProcessEnv;
  /** Working directory (default: the repository). */
  cwd?: string;
  /** The entry point: `["--import", "tsx", "src/start.ts"]` (default) or the launcher `["scripts/start.mjs"]`. */
  entry?: string[];
  /** How long `serving` waits for the banner (default 60 s). */
  timeoutMs?: number;
}

/** Runs the real entry point as an operator would (`npm start` minus npm) and collects its output. */
export function spawnSwapgraph(options: SpawnSwapgraphOptions = {}): SwapgraphProcess {
  const child = spawn(
    process.execPath,
    [...(options.entry ?? ["--import", "tsx", "src/start.ts"]), ...(options.args ?? [])],
    {
      cwd: options.cwd ?? root,
      env: options.env ?? { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on("line", (line) => output.push(line));
  }
  const banner = () => output.find((line) => line.includes("swapgraph is serving on"));
  const serving = waitFor(
    () => banner() !== undefined || child.exitCode !== null,
    options.timeoutMs ?? 60_000,
    "banner",
  ).then(() => {
    const line = banner();
    if (line === undefined) throw new Error(`swapgraph did not start:\n${output.join("\n")}`);
    return /http:\/\/[\d.]+:\d+/.exec(line)![0];
  });
  // A test that never awaits `serving` (the process is meant to fail) must not leave it unhandled.
  serving.catch(() => undefined);
  return { child, output, exited, serving };
}
