import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Hex, keccak256 } from "viem";

/** Creation bytecode of the contracts behind the devnet's real-chain cases. */
export interface ChainCaseContracts {
  /** Uniswap V2 rebuilt with PancakeSwap's 0.25% fee (9975/10000), router and pair agreeing. */
  fee25: { factory: Hex; router: Hex; pairInitCodeHash: Hex };
  DevnetAggregator: Hex;
  FeeOnTransferToken: Hex;
  /** Milliseconds spent in solc (0 when the cache answered). */
  compileMs: number;
  source: "memory" | "disk" | "solc";
}

type Saved = Omit<ChainCaseContracts, "compileMs" | "source">;

const require = createRequire(import.meta.url);
const CONTRACTS_DIR = new URL("./contracts/", import.meta.url);
const OWN_FILES = ["DevnetAggregator.sol", "FeeOnTransferToken.sol"] as const;
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["evm.bytecode.object"] } },
};
/** The init-code hash Uniswap's UniswapV2Library hard-codes (keccak256 of the npm pair's creation code). */
const UNISWAP_INIT_CODE_HASH = "96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f";

/**
 * A textual change of a Uniswap source: `count` occurrences must match, so an upstream change of
 * the npm sources fails loudly instead of compiling something else.
 */
interface Patch {
  file: RegExp;
  find: string | RegExp;
  replace: string;
  count: number;
}

// The npm sources pin solc 0.5.16 (core) and 0.6.6 (periphery); solc-js here is 0.8. These edits
// port them without touching their logic, then set PancakeSwap's fee and the new init-code hash.
// The sources are patched at build time and never copied into this repository (they are GPL-3.0).
const PORT: Patch[] = [
  { file: /.*/, find: /pragma solidity =0\.[56]\.\d+;/g, replace: "pragma solidity ^0.8.0;", count: -1 },
  { file: /.*/, find: /(constructor\([^)]*\))\s+public/g, replace: "$1", count: -1 },
  { file: /.*/, find: /uint112\(-1\)/g, replace: "type(uint112).max", count: -1 },
  { file: /.*/, find: /uint\(-1\)/g, replace: "type(uint).max", count: -1 },
  {
    file: /\/UniswapV2ERC20\.sol$/,
    find: "chainId := chainid\n",
    replace: "chainId := chainid()\n",
    count: 1,
  },
  // 0.8 refuses a function or event declared by two bases: the contracts declare their own events,
  // so they drop the interfaces (the interfaces stay in use as types).
  { file: /\/UniswapV2ERC20\.sol$/, find: "is IUniswapV2ERC20 {", replace: "{", count: 1 },
  {
    file: /\/UniswapV2Pair\.sol$/,
    find: "is IUniswapV2Pair, UniswapV2ERC20 {",
    replace: "is UniswapV2ERC20 {",
    count: 1,
  },
  { file: /\/UniswapV2Factory\.sol$/, find: "is IUniswapV2Factory {", replace: "{", count: 1 },
  {
    file: /\/UniswapV2Pair\.sol$/,
    find: "uint32 timeElapsed = blockTimestamp - blockTimestampLast; // overflow is desired",
    replace: "uint32 timeElapsed; unchecked { timeElapsed = blockTimestamp - blockTimestampLast; }",
    count: 1,
  },
  {
    file: /\/UniswapV2Library\.sol$/,
    find: "pair = address(uint(keccak256(",
    replace: "pair = address(uint160(uint(keccak256(",
    count: 1,
  },
  { file: /\/UniswapV2Library\.sol$/, find: "            ))));", replace: "            )))));", count: 1 },
  // 0.6 let an immutable implement a pure getter; 0.8 wants view.
  {
    file: /\/IUniswapV2Router01\.sol$/,
    find: /function (factory|WETH)\(\) external pure/g,
    replace: "function $1() external view",
    count: 2,
  },
];

const FEE_25: Patch[] = [
  {
    file: /\/UniswapV2Pair\.sol$/,
    find: /\.mul\(1000\)\.sub\(amount([01])In\.mul\(3\)\)/g,
    replace: ".mul(10000).sub(amount$1In.mul(25))",
    count: 2,
  },
  { file: /\/UniswapV2Pair\.sol$/, find: ".mul(1000**2)", replace: ".mul(10000**2)", count: 1 },
  { file: /\/UniswapV2Library\.sol$/, find: "amountIn.mul(997)", replace: "amountIn.mul(9975)", count: 1 },
  {
    file: /\/UniswapV2Library\.sol$/,
    find: "reserveIn.mul(1000)",
    replace: "reserveIn.mul(10000)",
    count: 1,
  },
  {
    file: /\/UniswapV2Library\.sol$/,
    find: "mul(amountOut).mul(1000)",
    replace: "mul(amountOut).mul(10000)",
    count: 1,
  },
  {
    file: /\/UniswapV2Library\.sol$/,
    find: "sub(amountOut).mul(997)",
    replace: "sub(amountOut).mul(9975)",
    count: 1,
  },
];

function applyPatches(path: string, text: string, patches: readonly Patch[]): string {
  let out = text;
  for (const patch of patches) {
    if (!patch.file.test(path)) continue;
    const matches =
      typeof patch.find === "string"
        ? out.split(patch.find).length - 1
        : [...out.matchAll(new RegExp(patch.find.source, "g"))].length;
    if (patch.count >= 0 && matches !== patch.count) {
      throw new Error(
        `devnet: patching ${path}: expected ${patch.count} of ${String(patch.find)}, found ${matches}`,
      );
    }
    out =
      typeof patch.find === "string"
        ? out.split(patch.find).join(patch.replace)
        : out.replace(patch.find, patch.replace);
  }
  return out;
}

/** Reads an npm Solidity source by its import path ("@uniswap/v2-core/contracts/..."). */
async function readNpmSource(path: string): Promise<string> {
  const [scope = "", name = "", ...rest] = path.split("/");
  const root = dirname(require.resolve(`${scope}/${name}/package.json`));
  return readFile(join(root, ...rest), "utf8");
}

/** Loads a source and every file it imports (relative or package paths), patched. */
async function loadTree(
  entry: string,
  patches: readonly Patch[],
): Promise<Record<string, { content: string }>> {
  const sources: Record<string, { content: string }> = {};
  const pending = [entry];
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (sources[path] !== undefined) continue;
    const content = applyPatches(path, await readNpmSource(path), patches);
    sources[path] = { content };
    for (const match of content.matchAll(/^import\s+['"]([^'"]+)['"];/gm)) {
      const target = match[1] as string;
      pending.push(target.startsWith(".") ? new URL(target, `file:///${path}`).pathname.slice(1) : target);
    }
  }
  return sources;
}

const memory = new Map<string, Promise<ChainCaseContracts>>();

/**
 * Compiles what the chain cases deploy: Uniswap V2 core and Router02 from their npm sources,
 * ported to solc 0.8 and set to a 0.25% fee (the router's library then carries the new pair's
 * init-code hash), and the devnet's aggregator and fee-on-transfer token. Cached in memory and,
 * with `cacheDir`, on disk keyed by the sources and the compiler version.
 */
export async function compileChainCaseContracts(
  options: { cacheDir?: string } = {},
): Promise<ChainCaseContracts> {
  const patches = [...PORT, ...FEE_25];
  const core = await loadTree("@uniswap/v2-core/contracts/UniswapV2Factory.sol", patches);
  const periphery = await loadTree("@uniswap/v2-periphery/contracts/UniswapV2Router02.sol", patches);
  const own: Record<string, { content: string }> = {};
  for (const file of OWN_FILES) own[file] = { content: await readFile(new URL(file, CONTRACTS_DIR), "utf8") };
  const solcVersion = (
    JSON.parse(await readFile(require.resolve("solc/package.json"), "utf8")) as { version: string }
  ).version;
  const key = createHash("sha256")
    .update(solcVersion)
    .update(JSON.stringify([core, periphery, own, SETTINGS]))
    .digest("hex")
    .slice(0, 16);
  const cached = memory.get(key);
  if (cached !== undefined) return { ...(await cached), compileMs: 0, source: "memory" };
  const pending = load(key, options.cacheDir, { core, periphery, own });
  memory.set(key, pending);
  pending.catch(() => memory.delete(key));
  return pending;
}

type Sources = Record<string, { content: string }>;

async function load(
  key: string,
  cacheDir: string | undefined,
  units: { core: Sources; periphery: Sources; own: Sources },
): Promise<ChainCaseContracts> {
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, `chain-cases-${key}.json`);
  if (cacheFile !== undefined) {
    try {
      const saved = JSON.parse(await readFile(cacheFile, "utf8")) as Saved;
      if (saved.fee25.router.startsWith("0x") && saved.FeeOnTransferToken.startsWith("0x")) {
        return { ...saved, compileMs: 0, source: "disk" };
      }
    } catch {
      // No usable cache: compile below.
    }
  }
  const started = performance.now();
  const { default: solc } = await import("solc");
  const compile = (sources: Sources) => {
    const output = JSON.parse(
      solc.compile(JSON.stringify({ language: "Solidity", sources, settings: SETTINGS })),
    ) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
    return (file: string, name: string): Hex => {
      const object = output.contracts?.[file]?.[name]?.evm.bytecode.object;
      if (object === undefined || object === "") throw new Error(`solc: no bytecode for ${name}`);
      return `0x${object}`;
    };
  };
  const core = compile(units.core);
  const pair = core("@uniswap/v2-core/contracts/UniswapV2Pair.sol", "UniswapV2Pair");
  const pairInitCodeHash = keccak256(pair);
  // The router computes pair addresses offline: it must carry the hash of this very pair build.
  const library = "@uniswap/v2-periphery/contracts/libraries/UniswapV2Library.sol";
  const periphery = { ...units.periphery };
  periphery[library] = {
    content: applyPatches(library, periphery[library]?.content ?? "", [
      { file: /.*/, find: UNISWAP_INIT_CODE_HASH, replace: pairInitCodeHash.slice(2), count: 1 },
    ]),
  };
  const router = compile(periphery)(
    "@uniswap/v2-periphery/contracts/UniswapV2Router02.sol",
    "UniswapV2Router02",
  );
  const own = compile(units.own);
  const saved: Saved = {
    fee25: {
      factory: core("@uniswap/v2-core/contracts/UniswapV2Factory.sol", "UniswapV2Factory"),
      router,
      pairInitCodeHash,
    },
    DevnetAggregator: own("DevnetAggregator.sol", "DevnetAggregator"),
    FeeOnTransferToken: own("FeeOnTransferToken.sol", "FeeOnTransferToken"),
  };
  if (cacheFile !== undefined && cacheDir !== undefined) {
    await mkdir(cacheDir, { recursive: true });
    // Write then rename so a parallel reader never sees half a file.
    const partial = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(partial, JSON.stringify(saved));
    await rename(partial, cacheFile);
  }
  return { ...saved, compileMs: Math.round(performance.now() - started), source: "solc" };
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { evm: { bytecode: { object: string } } }>>;
}
