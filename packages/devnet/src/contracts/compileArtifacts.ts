// Development only: the one place that loads solc and the @uniswap packages. The runtime reads
// the artifacts this writes (packages/devnet/src/artifacts/ via readArtifact, src/chain/artifacts/ via the
// chain code that runs them), so production installs neither; the production build leaves this
// folder out.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type Abi, type Hex, keccak256 } from "viem";
import type { ArtifactName, DevnetArtifact } from "../deploy/readArtifact.js";

const require = createRequire(import.meta.url);
const CONTRACTS_DIR = new URL("./", import.meta.url);
const CHAIN_CONTRACTS_DIR = new URL("../../../../src/chain/contracts/", import.meta.url);
const SETTINGS = { evmVersion: "cancun", optimizer: { enabled: true, runs: 200 } };
// Contracts production code runs on every configured chain: no opcode newer than the Merge
// (PUSH0, MCOPY), so a chain that lags a hard fork still runs them.
const CHAIN_SETTINGS = { evmVersion: "paris", optimizer: { enabled: true, runs: 200 } };
const OUTPUT_SELECTION = { "*": { "*": ["abi", "evm.bytecode.object"] } };
const OWN = [
  "DevnetToken",
  "WrappedNative",
  "HostileToken",
  "DevnetAggregator",
  "FeeOnTransferToken",
  "DevnetFarm",
  "DevnetPancakeV3PoolDeployer",
  "DevnetV3Router",
  "DevnetV3Quoter",
] as const;
/** Contracts of src/chain/contracts/: run by production code, deployless (never deployed). */
const CHAIN = ["CappedMulticall"] as const;
const CORE = "@uniswap/v2-core";
const PERIPHERY = "@uniswap/v2-periphery";
/**
 * Concentrated-liquidity builds taken as built (Hardhat artifacts): Uniswap V3 and PancakeSwap V3.
 * Their builds record no compiler: all are solc 0.7.6 (`pragma solidity =0.7.6` in their sources).
 */
const V3_BUILDS = {
  UniswapV3Factory: ["@uniswap/v3-core", "UniswapV3Factory.sol/UniswapV3Factory"],
  UniswapV3SwapRouter: ["@uniswap/v3-periphery", "SwapRouter.sol/SwapRouter"],
  UniswapV3QuoterV2: ["@uniswap/v3-periphery", "lens/QuoterV2.sol/QuoterV2"],
  PancakeV3Factory: ["@pancakeswap/v3-core", "PancakeV3Factory.sol/PancakeV3Factory"],
  PancakeV3Pool: ["@pancakeswap/v3-core", "PancakeV3Pool.sol/PancakeV3Pool"],
} as const;
/** The init-code hash Uniswap's UniswapV2Library hard-codes (keccak256 of the npm pair's creation code). */
const UNISWAP_INIT_CODE_HASH = "96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f";

/**
 * A textual change of a Uniswap source: `count` occurrences must match (-1: any), so an upstream
 * change of the npm sources fails loudly instead of compiling something else.
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

type Sources = Record<string, { content: string }>;

/** Names of the artifacts in src/chain/artifacts/. */
type ChainArtifactName = (typeof CHAIN)[number];

/** Every committed artifact, by the folder it is committed in. */
export interface CompiledArtifacts {
  /** packages/devnet/src/artifacts/: what the devnet deploys. */
  devnet: Record<ArtifactName, DevnetArtifact>;
  /** src/chain/artifacts/: what production code runs (deployless eth_calls). */
  chain: Record<ChainArtifactName, DevnetArtifact>;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

/**
 * Builds every contract the devnet deploys: its own packages/devnet/src/contracts/*.sol, Uniswap V2 core
 * and Router02 from their npm sources ported to solc 0.8 with a 0.25% fee (the router carrying the
 * rebuilt pair's init-code hash), and the official factory and router taken from the npm builds;
 * and the contracts production code runs, src/chain/contracts/*.sol.
 */
export async function compileArtifacts(): Promise<CompiledArtifacts> {
  const { default: solc } = await import("solc");
  const version = String(solc.version());
  const compile = (sources: Sources, settings: Record<string, unknown> = SETTINGS) => {
    const input = {
      language: "Solidity",
      sources,
      settings: { ...settings, outputSelection: OUTPUT_SELECTION },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === "error");
    if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);
    return (
      file: string,
      contractName: string,
      source: string,
      hashed: Sources = sources,
    ): DevnetArtifact => {
      const contract = output.contracts?.[file]?.[contractName];
      if (contract === undefined || contract.evm.bytecode.object === "") {
        throw new Error(`solc: no bytecode for ${contractName}`);
      }
      return {
        contractName,
        source,
        compiler: { version, settings },
        sourceHash: sha256(JSON.stringify(hashed)),
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object.toLowerCase()}`,
      };
    };
  };

  const own: Sources = {};
  const ownInputs: Record<string, Sources> = {};
  for (const name of OWN) {
    const file = `${name}.sol`;
    ownInputs[file] = await loadOwnTree(file);
    Object.assign(own, ownInputs[file]);
  }
  const ownBuild = compile(own);
  const ownArtifact = (name: (typeof OWN)[number]) => {
    const file = `${name}.sol`;
    // A file's input is its own text and the files it imports (the tokens' base ERC-20).
    return ownBuild(file, name, `packages/devnet/src/contracts/${file}`, ownInputs[file] as Sources);
  };

  const chainSources: Sources = {};
  for (const name of CHAIN) {
    chainSources[`${name}.sol`] = {
      content: await readFile(new URL(`${name}.sol`, CHAIN_CONTRACTS_DIR), "utf8"),
    };
  }
  const chainBuild = compile(chainSources, CHAIN_SETTINGS);
  const chainArtifact = (name: ChainArtifactName) => {
    const file = `${name}.sol`;
    return chainBuild(file, name, `src/chain/contracts/${file}`, {
      [file]: chainSources[file] as { content: string },
    });
  };

  const patches = [...PORT, ...FEE_25];
  const core = await loadTree(`${CORE}/contracts/UniswapV2Factory.sol`, patches);
  const coreBuild = compile(core);
  const ported = `ported to solc 0.8 with PancakeSwap's 0.25% fee`;
  const factoryFee25 = coreBuild(
    `${CORE}/contracts/UniswapV2Factory.sol`,
    "UniswapV2Factory",
    `${await packageId(CORE)} contracts/UniswapV2Factory.sol, ${ported}`,
  );
  const pairFee25 = coreBuild(`${CORE}/contracts/UniswapV2Pair.sol`, "UniswapV2Pair", "");
  const pairInitCodeHash = keccak256(pairFee25.bytecode);
  // The router computes pair addresses offline: it must carry the hash of this very pair build.
  const periphery = await loadTree(`${PERIPHERY}/contracts/UniswapV2Router02.sol`, patches);
  const library = `${PERIPHERY}/contracts/libraries/UniswapV2Library.sol`;
  periphery[library] = {
    content: applyPatches(library, periphery[library]?.content ?? "", [
      { file: /.*/, find: UNISWAP_INIT_CODE_HASH, replace: pairInitCodeHash.slice(2), count: 1 },
    ]),
  };
  const routerFee25 = compile(periphery)(
    `${PERIPHERY}/contracts/UniswapV2Router02.sol`,
    "UniswapV2Router02",
    `${await packageId(PERIPHERY)} contracts/UniswapV2Router02.sol, ${ported}`,
  );

  const npmPair = await readNpmBuild(CORE, "UniswapV2Pair");
  const npmFactory = await readNpmBuild(CORE, "UniswapV2Factory");
  const devnet = {
    DevnetToken: ownArtifact("DevnetToken"),
    WrappedNative: ownArtifact("WrappedNative"),
    HostileToken: ownArtifact("HostileToken"),
    DevnetAggregator: ownArtifact("DevnetAggregator"),
    FeeOnTransferToken: ownArtifact("FeeOnTransferToken"),
    DevnetFarm: ownArtifact("DevnetFarm"),
    UniswapV2Factory: { ...npmFactory, pairInitCodeHash: keccak256(npmPair.bytecode) },
    UniswapV2Router02: await readNpmBuild(PERIPHERY, "UniswapV2Router02"),
    UniswapV2FactoryFee25: { ...factoryFee25, pairInitCodeHash },
    UniswapV2Router02Fee25: routerFee25,
    DevnetPancakeV3PoolDeployer: ownArtifact("DevnetPancakeV3PoolDeployer"),
    DevnetV3Router: ownArtifact("DevnetV3Router"),
    DevnetV3Quoter: ownArtifact("DevnetV3Quoter"),
    UniswapV3Factory: await readHardhatBuild(...V3_BUILDS.UniswapV3Factory),
    UniswapV3SwapRouter: await readHardhatBuild(...V3_BUILDS.UniswapV3SwapRouter),
    UniswapV3QuoterV2: await readHardhatBuild(...V3_BUILDS.UniswapV3QuoterV2),
    PancakeV3Factory: await readHardhatBuild(...V3_BUILDS.PancakeV3Factory),
    PancakeV3Pool: await readHardhatBuild(...V3_BUILDS.PancakeV3Pool),
  };
  return { devnet, chain: { CappedMulticall: chainArtifact("CappedMulticall") } };
}

/** The committed text of an artifact: fixed key order, sorted ABI keys, no timestamps. */
export function formatArtifact(artifact: DevnetArtifact): string {
  const ordered = {
    contractName: artifact.contractName,
    source: artifact.source,
    compiler: {
      version: artifact.compiler.version,
      ...(artifact.compiler.settings === undefined ? {} : { settings: sortKeys(artifact.compiler.settings) }),
    },
    sourceHash: artifact.sourceHash,
    ...(artifact.pairInitCodeHash === undefined ? {} : { pairInitCodeHash: artifact.pairInitCodeHash }),
    abi: sortKeys(artifact.abi),
    bytecode: artifact.bytecode,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  ) as T;
}

function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

async function packageJson(name: string): Promise<{
  version: string;
  devDependencies?: Record<string, string>;
}> {
  return JSON.parse(await readFile(require.resolve(`${name}/package.json`), "utf8"));
}

async function packageId(name: string): Promise<string> {
  return `${name}@${(await packageJson(name)).version}`;
}

/** One contract of an npm package's build/, as built (the official Uniswap V2 bytecode). */
async function readNpmBuild(pkg: string, contractName: string): Promise<DevnetArtifact> {
  const path = `${pkg}/build/${contractName}.json`;
  const text = await readFile(require.resolve(path), "utf8");
  const build = JSON.parse(text) as { abi: Abi; bytecode: string; metadata?: string };
  // v2-core's build records its compiler in the metadata; v2-periphery's only in package.json.
  const metadata =
    build.metadata === undefined
      ? undefined
      : (JSON.parse(build.metadata) as {
          compiler: { version: string };
          settings: { evmVersion: string; optimizer: Record<string, unknown> };
        });
  const code = build.bytecode.toLowerCase();
  return {
    contractName,
    source: `${await packageId(pkg)} build/${contractName}.json`,
    compiler:
      metadata === undefined
        ? { version: (await packageJson(pkg)).devDependencies?.solc ?? "unknown" }
        : {
            version: metadata.compiler.version,
            settings: { evmVersion: metadata.settings.evmVersion, optimizer: metadata.settings.optimizer },
          },
    sourceHash: sha256(text),
    abi: build.abi,
    bytecode: (code.startsWith("0x") ? code : `0x${code}`) as Hex,
  };
}

/**
 * One contract of a V3 package's Hardhat build (artifacts/contracts/<file>.sol/<name>.json), as
 * built (the official bytecode: the Uniswap pool's init-code hash is the one its periphery hard-codes).
 */
async function readHardhatBuild(pkg: string, file: string): Promise<DevnetArtifact> {
  const path = `${pkg}/artifacts/contracts/${file}.json`;
  const text = await readFile(require.resolve(path), "utf8");
  const build = JSON.parse(text) as { contractName: string; abi: Abi; bytecode: string };
  return {
    contractName: build.contractName,
    source: `${await packageId(pkg)} artifacts/contracts/${file}.json`,
    compiler: { version: "0.7.6" },
    sourceHash: sha256(text),
    abi: build.abi,
    bytecode: build.bytecode.toLowerCase() as Hex,
  };
}

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

/** Reads one of packages/devnet/src/contracts/*.sol and the files of that folder it imports, in a stable order. */
async function loadOwnTree(entry: string): Promise<Sources> {
  const found: Sources = {};
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (found[file] !== undefined) continue;
    const content = await readFile(new URL(file, CONTRACTS_DIR), "utf8");
    found[file] = { content };
    for (const match of content.matchAll(/^import\s+"\.\/([^"/]+)";/gm)) pending.push(match[1] as string);
  }
  // The entry first, then its imports by name: the source hash depends on the order.
  return Object.fromEntries(
    [
      entry,
      ...Object.keys(found)
        .filter((file) => file !== entry)
        .sort(),
    ].map((file) => [file, found[file] as { content: string }]),
  );
}

/** Loads a source and every file it imports (relative or package paths), patched, in a stable order. */
async function loadTree(entry: string, patches: readonly Patch[]): Promise<Sources> {
  const found: Sources = {};
  const pending = [entry];
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (found[path] !== undefined) continue;
    const content = applyPatches(path, await readNpmSource(path), patches);
    found[path] = { content };
    for (const match of content.matchAll(/^import\s+['"]([^'"]+)['"];/gm)) {
      const target = match[1] as string;
      pending.push(target.startsWith(".") ? new URL(target, `file:///${path}`).pathname.slice(1) : target);
    }
  }
  // solc's output does not depend on the order, but the source hash does.
  return Object.fromEntries(
    Object.keys(found)
      .sort()
      .map((path) => [path, found[path] as { content: string }]),
  );
}
