import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Hex } from "viem";

/** Creation bytecode of the devnet's own contracts (their ABIs live in devnetAbis.ts). */
export interface CompiledContracts {
  DevnetToken: Hex;
  WrappedNative: Hex;
  /** An ERC-20 whose metadata attacks its readers (deployHostileTokens). */
  HostileToken: Hex;
  /** Milliseconds spent in solc (0 when the cache answered). */
  compileMs: number;
  /** Where the bytecode came from. */
  source: "memory" | "disk" | "solc";
}

const require = createRequire(import.meta.url);
const CONTRACTS_DIR = new URL("./contracts/", import.meta.url);
const FILES = ["DevnetToken.sol", "WrappedNative.sol", "HostileToken.sol"] as const;
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["evm.bytecode.object"] } },
};

const memory = new Map<string, Promise<CompiledContracts>>();

/**
 * Compiles src/devnet/contracts/*.sol with solc-js. The result is cached in memory and, when
 * `cacheDir` is given, on disk keyed by the sources and the compiler version, since loading and
 * running solc-js takes seconds.
 */
export async function compileContracts(options: { cacheDir?: string } = {}): Promise<CompiledContracts> {
  const sources: Record<string, { content: string }> = {};
  for (const file of FILES) sources[file] = { content: await readFile(new URL(file, CONTRACTS_DIR), "utf8") };
  const input = JSON.stringify({ language: "Solidity", sources, settings: SETTINGS });
  const solcVersion = await readSolcVersion();
  const key = createHash("sha256").update(solcVersion).update(input).digest("hex").slice(0, 16);
  const cached = memory.get(key);
  if (cached !== undefined) return { ...(await cached), compileMs: 0, source: "memory" };
  const pending = load(input, key, options.cacheDir);
  memory.set(key, pending);
  pending.catch(() => memory.delete(key));
  return pending;
}

async function load(input: string, key: string, cacheDir: string | undefined): Promise<CompiledContracts> {
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `contracts-${key}.json`);
  if (cacheFile !== undefined) {
    try {
      const saved = JSON.parse(await readFile(cacheFile, "utf8")) as {
        DevnetToken: Hex;
        WrappedNative: Hex;
        HostileToken: Hex;
      };
      if (
        saved.DevnetToken.startsWith("0x") &&
        saved.WrappedNative.startsWith("0x") &&
        saved.HostileToken.startsWith("0x")
      ) {
        return {
          DevnetToken: saved.DevnetToken,
          WrappedNative: saved.WrappedNative,
          HostileToken: saved.HostileToken,
          compileMs: 0,
          source: "disk",
        };
      }
    } catch {
      // No usable cache: compile below.
    }
  }
  const started = performance.now();
  const { default: solc } = await import("solc");
  const output = JSON.parse(solc.compile(input)) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
  const bytecode = (file: string, name: string): Hex => {
    const object = output.contracts?.[file]?.[name]?.evm.bytecode.object;
    if (object === undefined || object === "") throw new Error(`solc: no bytecode for ${name}`);
    return `0x${object}`;
  };
  const compiled: CompiledContracts = {
    DevnetToken: bytecode("DevnetToken.sol", "DevnetToken"),
    WrappedNative: bytecode("WrappedNative.sol", "WrappedNative"),
    HostileToken: bytecode("HostileToken.sol", "HostileToken"),
    compileMs: Math.round(performance.now() - started),
    source: "solc",
  };
  if (cacheFile !== undefined && cacheDir !== undefined) {
    await mkdir(cacheDir, { recursive: true });
    // Write then rename so a parallel reader never sees half a file.
    const partial = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(
      partial,
      JSON.stringify({
        DevnetToken: compiled.DevnetToken,
        WrappedNative: compiled.WrappedNative,
        HostileToken: compiled.HostileToken,
      }),
    );
    await rename(partial, cacheFile);
  }
  return compiled;
}

async function readSolcVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(require.resolve("solc/package.json"), "utf8")) as { version: string };
  return pkg.version;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
}
