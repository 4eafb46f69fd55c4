import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import type { Devnet, StartDevnetOptions } from "@swapgraph/devnet/startDevnet.js";
import { writeManifest } from "@swapgraph/devnet/writeManifest.js";

/**
 * A devnet built once per test run and loaded by every later file that asks for the same options.
 *
 * The first file to ask builds it as before, its anvils started with `--dump-state` and
 * `--preserve-historical-states`; when that file stops the devnet, anvil writes each chain's
 * blocks, receipts, logs, accounts and every block's state, saved with what describes the devnet
 * (network configs, chain infos, how each anvil started) in the run's cache dir. Later files
 * start anvil with `--load-state` instead of deploying and simulating again (a 300-swap chain:
 * 165 MB, ~1-4 s to load; a build is ~4-10 s).
 *
 * Time: a devnet's history ends at the moment it was built ("now" then), and a loaded chain mines
 * its next blocks at the wall clock, as a fresh chain does after its build. The cache lives for
 * one run only (test/support/devnetCacheSetup.ts makes the dir and removes it), so a loaded
 * history is at most the run's length older than a fresh one: the same picture a long file
 * already had of its own devnet by its last test.
 */

interface SavedDevnet {
  /** The devnet with each chain's RPC URL replaced by `rpcPlaceholder(i)`, bigints tagged. */
  devnet: string;
  chainCount: number;
  /** Each chain's newest block hash when built: a loaded chain must start from the same block. */
  heads: string[];
}

const BIGINT = "$bigint";

function encode(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return { [BIGINT]: v.toString() };
    if (v instanceof Map || v instanceof Set || typeof v === "function")
      throw new Error("devnetCache: a devnet's plain data holds no Map, Set or function");
    return v;
  });
}

function decode<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) =>
    typeof v === "object" && v !== null && BIGINT in v ? BigInt((v as Record<string, string>)[BIGINT]!) : v,
  ) as T;
}

const rpcPlaceholder = (index: number) => `http://devnet-cache-chain-${index}.invalid`;

/** What a cached devnet is keyed by: its options, less where it writes, what it logs and live trading. */
export function devnetCacheKey(options: StartDevnetOptions): string {
  const { dataDir: _dataDir, log: _log, liveIntervalMs: _live, dumpStateDir: _dump, ...rest } = options;
  const sorted = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
  return createHash("sha256").update(encode(sorted)).digest("hex").slice(0, 16);
}

/**
 * The devnet of `options` from the run's cache. When the run has it, it is loaded from the saved
 * states. Else the first file to ask builds it with each anvil dumping its whole state on stop,
 * and saves it when that file stops it; a file asking while that builder's devnet still runs
 * builds its own (as without a cache) rather than wait for it. Live trading is not cached: ask for
 * `liveIntervalMs: 0` (startLive of a loaded devnet throws).
 */
export async function startCachedDevnet(
  cacheDir: string,
  options: StartDevnetOptions & { dataDir: string },
  build: (options: StartDevnetOptions) => Promise<Devnet>,
): Promise<Devnet> {
  if ((options.liveIntervalMs ?? 3000) > 0)
    throw new Error("startCachedDevnet: a cached devnet trades no live blocks (liveIntervalMs: 0)");
  const entry = join(cacheDir, devnetCacheKey(options));
  if (existsSync(join(entry, "devnet.json"))) return loadDevnet(entry, options.dataDir);
  const lock = `${entry}.lock`;
  if (!takeLock(lock)) return build(options);
  try {
    return await buildAndSave(options, entry, lock, build);
  } catch (error) {
    rmSync(lock, { recursive: true, force: true });
    throw error;
  }
}

/** Takes the entry's lock (a dir holding the taker's pid), breaking one whose process is gone. */
function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      return true;
    } catch {
      let pid: number;
      try {
        pid = Number(readFileSync(join(lock, "pid"), "utf8"));
        process.kill(pid, 0);
        return false;
      } catch (error) {
        // Its pid not written yet (taken a moment ago): held. No such process: a stale lock.
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") return false;
        rmSync(lock, { recursive: true, force: true });
      }
    }
  }
  return false;
}

/**
 * Builds the devnet with every anvil dumping its whole state on stop and hands it to the caller;
 * its stop then saves the dumps with the devnet's description into `entry` (renamed into place
 * when whole). anvil's own dump on exit keeps every block's state; `anvil_dumpState` would drop
 * them, and calls at old blocks (the indexer makes some) would fail on a loaded chain.
 */
async function buildAndSave(
  options: StartDevnetOptions,
  entry: string,
  lock: string,
  build: (options: StartDevnetOptions) => Promise<Devnet>,
): Promise<Devnet> {
  const partial = `${entry}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const devnet = await build({ ...options, dumpStateDir: partial });
  // The file using it changes its chains: at its stop they go back to the built state, then dump.
  const built = await Promise.all(
    devnet.chains.map(async (chain) => ({
      snapshot: (await rpc(chain.rpcUrl, "evm_snapshot", [])) as string,
      head: await headHash(chain.rpcUrl),
    })),
  );
  let text = encode({ networks: devnet.networks, chains: devnet.chains, anvils: devnet.anvils });
  for (const [index, chain] of devnet.chains.entries())
    text = text.replaceAll(JSON.stringify(chain.rpcUrl), JSON.stringify(rpcPlaceholder(index)));
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      try {
        const restored = await Promise.all(
          devnet.chains
            .map(async (chain, index) => {
              const { snapshot, head } = built[index]!;
              return (
                (await rpc(chain.rpcUrl, "evm_revert", [snapshot])) === true &&
                (await headHash(chain.rpcUrl)) === head
              );
            })
            .map((p) => p.catch(() => false)),
        );
        await devnet.stop();
        // A chain that could not go back (its anvil gone, a revert past the snapshot): not saved.
        if (!restored.every(Boolean)) return;
        for (const [index, chain] of devnet.chains.entries())
          renameSync(join(partial, `${chain.network}.json`), join(partial, `chain-${index}.json`));
        const saved: SavedDevnet = {
          devnet: text,
          chainCount: devnet.chains.length,
          heads: built.map((b) => b.head),
        };
        writeFileSync(join(partial, "devnet.json"), JSON.stringify(saved));
        renameSync(partial, entry);
      } finally {
        rmSync(partial, { recursive: true, force: true });
        rmSync(lock, { recursive: true, force: true });
      }
    })();
    return stopping;
  };
  return { ...devnet, stop };
}

/** One JSON-RPC call's result (anvil's own methods, which viem's clients do not all type). */
export async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The hash of the chain's newest block. */
async function headHash(url: string): Promise<string> {
  return ((await rpc(url, "eth_getBlockByNumber", ["latest", false])) as { hash: string }).hash;
}

/** Starts one anvil per saved chain from its state and returns the devnet as it was built. */
async function loadDevnet(entry: string, dataDir: string): Promise<Devnet> {
  const started = performance.now();
  const saved = JSON.parse(readFileSync(join(entry, "devnet.json"), "utf8")) as SavedDevnet;
  const shape = decode<Pick<Devnet, "anvils">>(saved.devnet);
  const settled = await Promise.allSettled(
    shape.anvils.map((anvil, index) => {
      // The genesis timestamp is in the state; the accounts (and so the unlocked traders) are not.
      const { genesisTimestamp: _genesis, dumpStatePath: _dump, ...rest } = anvil;
      // Reading a 165 MB state takes ~1-4 s here, far longer with CPU hogs on both cores: generous.
      return startAnvil({
        ...rest,
        loadStatePath: join(entry, `chain-${index}.json`),
        startTimeoutMs: 120_000,
      });
    }),
  );
  const anvils = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const stop = async () => {
    await Promise.all(anvils.map((a) => a.stop()));
  };
  const failed = settled.find((r) => r.status === "rejected");
  if (failed !== undefined) {
    await stop();
    throw failed.reason;
  }
  const heads = await Promise.all(anvils.map((anvil) => headHash(anvil.rpcUrl)));
  if (heads.some((head, index) => head !== saved.heads[index])) {
    await stop();
    throw new Error(
      `devnetCache: ${entry} loaded at other blocks than it was built (${heads} vs ${saved.heads})`,
    );
  }
  let text = saved.devnet;
  for (const [index, anvil] of anvils.entries())
    text = text.replaceAll(JSON.stringify(rpcPlaceholder(index)), JSON.stringify(anvil.rpcUrl));
  const devnet = decode<Pick<Devnet, "networks" | "chains" | "anvils">>(text);
  const manifestPath = resolve(dataDir, "manifest.json");
  try {
    await writeManifest(manifestPath, devnet.networks);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ...devnet,
    chains: devnet.chains.map((chain, index) => ({ ...chain, pid: anvils[index]!.pid })),
    manifestPath,
    timings: { totalMs: Math.round(performance.now() - started) },
    startLive() {
      throw new Error("a devnet loaded from the test cache trades no live blocks: build it with startDevnet");
    },
    stopLive: async () => {},
    stop,
  };
}
