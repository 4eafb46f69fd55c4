import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";
import { createPublicClient, http } from "viem";
import { findFreePort, isPortFree } from "./findFreePort.js";
import { resolveAnvilBinary } from "./resolveAnvilBinary.js";
import { spawnWatchdog } from "./spawnWatchdog.js";

/** Options of one local anvil chain. */
export interface StartAnvilOptions {
  chainId: number;
  /** TCP port on 127.0.0.1; default: a free one (anvil cannot bind port 0 itself). */
  port?: number;
  /** "manual" (default): blocks are mined only by evm_mine; "auto": one block per transaction. */
  mining?: "manual" | "auto";
  /** Number of unlocked dev accounts (default 10). */
  accounts?: number;
  /** Balance of every dev account in whole native coins (default anvil's 10,000). */
  balance?: bigint;
  /** Seed of the dev accounts' mnemonic, so each chain can have its own addresses. */
  mnemonicSeed?: number;
  /** Unix seconds of the genesis block, e.g. a week ago so history can be mined forward to now. */
  genesisTimestamp?: number;
  /** Block gas limit (default 300M, so setup and busy history blocks fit). */
  gasLimit?: bigint;
  /**
   * A state saved with `anvil_dumpState` (gunzipped JSON file): the chain starts with its blocks,
   * transactions and accounts, and mines on from the wall clock.
   */
  loadStatePath?: string;
  /**
   * Where anvil writes its state when it stops, every block's state included
   * (`--preserve-historical-states`), so a chain loaded from it still answers calls at old blocks
   * (`anvil_dumpState` leaves those out: such calls then fail with BlockOutOfRangeError).
   */
  dumpStatePath?: string;
  /** How long to wait for the first eth_chainId answer (default 20 s). */
  startTimeoutMs?: number;
}

/** A running anvil process. */
export interface Anvil {
  rpcUrl: string;
  port: number;
  pid: number;
  chainId: number;
  /** Ends anvil (SIGTERM, then SIGKILL); safe to call more than once. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let handlersInstalled = false;

/** Starts anvil and resolves once it answers eth_chainId with the requested chain id. */
export async function startAnvil(options: StartAnvilOptions): Promise<Anvil> {
  const attempts = options.port === undefined ? 3 : 1;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = options.port ?? (await findFreePort());
    try {
      return await launch(options, port);
    } catch (error) {
      // Another process may have taken the free port between our probe and anvil's bind.
      lastError = error;
    }
  }
  throw lastError;
}

async function launch(options: StartAnvilOptions, port: number): Promise<Anvil> {
  installExitHandlers();
  // Another node on the port would answer our readiness probe in anvil's place.
  if (!(await isPortFree(port))) throw new Error(`anvil: port ${port} on 127.0.0.1 is already in use`);
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--chain-id",
    String(options.chainId),
    "--accounts",
    String(options.accounts ?? 10),
    "--gas-limit",
    String(options.gasLimit ?? 300_000_000n),
    // Transactions are mined by fee, so the sender fixes their order in a block (fifo does not
    // keep a JSON-RPC batch's order).
    "--order",
    "fees",
    "--quiet",
  ];
  if ((options.mining ?? "manual") === "manual") args.push("--no-mining");
  if (options.balance !== undefined) args.push("--balance", options.balance.toString());
  if (options.mnemonicSeed !== undefined) args.push("--mnemonic-seed-unsafe", String(options.mnemonicSeed));
  if (options.genesisTimestamp !== undefined) args.push("--timestamp", String(options.genesisTimestamp));
  if (options.loadStatePath !== undefined) args.push("--load-state", options.loadStatePath);
  if (options.dumpStatePath !== undefined)
    args.push("--dump-state", options.dumpStatePath, "--preserve-historical-states");

  const child = spawn(resolveAnvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] });
  running.add(child);
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let spawnError: Error | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    });
    // A spawn failure (e.g. ENOENT) emits "error" and never "exit".
    child.once("error", (error) => {
      spawnError = error;
      running.delete(child);
      resolve(null);
    });
  });
  const watchdog = child.pid === undefined ? undefined : spawnWatchdog(child.pid);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      watchdog?.kill("SIGKILL");
      if (child.exitCode === null && child.signalCode === null && spawnError === undefined) {
        child.kill("SIGTERM");
        // Writing a state dump on the way out takes a while on a long chain.
        const timer = setTimeout(
          () => child.kill("SIGKILL"),
          options.dumpStatePath === undefined ? 3000 : 120_000,
        );
        await exited;
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    if (child.pid === undefined) {
      await exited;
      throw new Error(`anvil could not be started: ${spawnError?.message ?? "no pid"}`);
    }
    await waitUntilReady(
      rpcUrl,
      options.chainId,
      exited,
      options.startTimeoutMs ?? 20_000,
      () => spawnError?.message ?? stderr,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { rpcUrl, port, pid: child.pid, chainId: options.chainId, stop };
}

/** Polls eth_chainId until anvil answers, it exits, or the timeout passes. */
async function waitUntilReady(
  rpcUrl: string,
  chainId: number,
  exited: Promise<number | null>,
  timeoutMs: number,
  stderr: () => string,
): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 1000 }) });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  let delay = 10;
  for (;;) {
    if (gone) throw new Error(`anvil exited before it was ready: ${stderr().trim() || "no output"}`);
    try {
      const answered = await client.getChainId();
      if (answered !== chainId) throw new Error(`anvil answered chain id ${answered}, expected ${chainId}`);
      return;
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("anvil answered")) throw error;
    }
    if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, delay)), exited]);
    delay = Math.min(delay * 2, 200);
  }
}

/** Kills every anvil still running when the process exits or is interrupted. */
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill("SIGKILL");
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      // When someone else (e.g. the CLI) handles the signal, they stop us and the exit hook covers
      // the rest; otherwise act like the default handler, which would skip the exit hook.
      if (process.listenerCount(signal) > 1) return;
      killAll();
      process.exit(128 + constants.signals[signal]);
    };
    process.on(signal, onSignal);
  }
}
