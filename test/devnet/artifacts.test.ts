import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  devnetAggregatorAbi,
  feeOnTransferRouterAbi,
  feeOnTransferTokenAbi,
  pairCreatedAbi,
} from "@swapgraph/devnet/cases/chainCaseAbis.js";
import { hostileTokenAbi } from "@swapgraph/devnet/cases/deployHostileTokens.js";
import { type CompiledArtifacts, compileArtifacts } from "@swapgraph/devnet/contracts/compileArtifacts.js";
import { findStaleArtifacts } from "@swapgraph/devnet/contracts/findStaleArtifacts.js";
import {
  devnetFarmAbi,
  devnetTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2RouterAbi,
  wrappedNativeAbi,
} from "@swapgraph/devnet/deploy/devnetAbis.js";
import { loadDevnetContracts } from "@swapgraph/devnet/deploy/loadDevnetContracts.js";
import {
  type ArtifactName,
  type DevnetArtifact,
  readArtifact,
} from "@swapgraph/devnet/deploy/readArtifact.js";
import {
  devnetV3RouterAbi,
  pancakeV3PoolDeployerAbi,
  quoterV2Abi,
  v3FactoryAbi,
  v3PoolAbi,
} from "@swapgraph/devnet/v3/v3Abis.js";
import { type Abi, type AbiParameter, keccak256 } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cappedMulticallAbi } from "../../src/chain/cappedMulticall.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SRC = join(ROOT, "src");
const DEVNET_SRC = join(ROOT, "packages", "devnet", "src");
const ARTIFACTS = join(DEVNET_SRC, "artifacts");
/** Artifacts of the contracts production code runs (deployless reads). */
const CHAIN_ARTIFACTS = join(SRC, "chain", "artifacts");
/** The only place allowed to load the compiler and the Uniswap packages (development only). */
const COMPILER_DIR = join(DEVNET_SRC, "contracts");

// One solc run (a few seconds) shared by the tests that need a fresh compile.
let compiled: CompiledArtifacts;
const tempDirs: string[] = [];

beforeAll(async () => {
  compiled = await compileArtifacts();
});

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("committed contract artifacts", () => {
  test("behavior: packages/devnet/src/artifacts and src/chain/artifacts equal a fresh compile of the sources, byte for byte", () => {
    for (const [dir, artifacts] of [
      [ARTIFACTS, compiled.devnet],
      [CHAIN_ARTIFACTS, compiled.chain],
    ] as const) {
      const problems = findStaleArtifacts(artifacts, dir);
      expect(
        problems,
        `${relative(ROOT, dir)} is stale: run \`npm run contracts\` and commit the result\n${problems.join("\n")}`,
      ).toEqual([]);
    }
    expect(Object.keys(compiled.devnet)).toHaveLength(18);
    expect(Object.keys(compiled.chain)).toEqual(["CappedMulticall"]);
  });

  test("behavior: the deployless reader is built for chains without Shanghai opcodes, and its constructor ABI is the one the chain code encodes", () => {
    const reader = compiled.chain.CappedMulticall;
    expect(reader.compiler.settings).toMatchObject({ evmVersion: "paris" });
    expect(reader.abi.map(signature)).toEqual(cappedMulticallAbi.map(signature));
  });

  test("error: a changed, hand-edited, missing or unknown artifact file is reported", () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-artifacts-"));
    tempDirs.push(dir);
    cpSync(ARTIFACTS, dir, { recursive: true });
    const edit = (file: string, change: (artifact: DevnetArtifact) => void) => {
      const artifact = JSON.parse(readFileSync(join(dir, file), "utf8")) as DevnetArtifact;
      change(artifact);
      writeFileSync(join(dir, file), JSON.stringify(artifact, null, 2));
    };
    edit("DevnetToken.json", (a) => {
      a.sourceHash = "sha256:00";
    });
    edit("WrappedNative.json", (a) => {
      a.bytecode = `${a.bytecode}00`;
    });
    rmSync(join(dir, "HostileToken.json"));
    writeFileSync(join(dir, "Removed.json"), "{}");
    expect(findStaleArtifacts(compiled.devnet, dir)).toMatchInlineSnapshot(`
      [
        "DevnetToken.json differs from a fresh compile: its sources changed",
        "WrappedNative.json differs from a fresh compile of the same sources (compiler, settings or hand edit)",
        "HostileToken.json is missing",
        "Removed.json is not produced by the compile",
      ]
    `);
  });

  test("behavior: every router hard-codes the init-code hash of the pair its factory deploys", () => {
    const { uniswap, chainCases } = loadDevnetContracts();
    // The official npm build's hash (FACTS.md), and a different one for the 0.25% rebuild.
    expect(uniswap.pairInitCodeHash).toBe(
      "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
    );
    expect(chainCases.fee25.pairInitCodeHash).not.toBe(uniswap.pairInitCodeHash);
    for (const build of [uniswap, chainCases.fee25]) {
      expect(build.router).toContain(build.pairInitCodeHash.slice(2));
      // The factory carries the pair's creation code, whose hash is that one.
      expect(build.factory.length).toBeGreaterThan(20_000);
    }
  });

  test("behavior: the V3 builds are the official ones: their pools' init-code hashes are those the periphery and the devnet compute addresses with", () => {
    const { v3 } = loadDevnetContracts();
    // PancakeSwap's POOL_INIT_CODE_HASH; our deployer creates the pool from exactly this code.
    expect(keccak256(v3.pancakePool)).toBe(
      "0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2",
    );
    // Uniswap's factory carries the pool whose hash SwapRouter and QuoterV2 hard-code.
    const uniswapHash = "e34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54";
    expect(v3.swapRouter).toContain(uniswapHash);
    expect(v3.quoterV2).toContain(uniswapHash);
    expect(v3.uniswapFactory.length).toBeGreaterThan(40_000);
    for (const name of [
      "UniswapV3Factory",
      "UniswapV3SwapRouter",
      "UniswapV3QuoterV2",
      "PancakeV3Factory",
      "PancakeV3Pool",
    ] as const)
      expect(readArtifact(name).source).toMatch(
        /^@(uniswap|pancakeswap)\/v3-(core|periphery)@\d+\.\d+\.\d+ artifacts\//,
      );
  });

  test("behavior: the hand-written ABIs the devnet calls match the artifacts' ABIs", () => {
    const uses: [Abi, ArtifactName[]][] = [
      [devnetTokenAbi, ["DevnetToken"]],
      [wrappedNativeAbi, ["WrappedNative"]],
      [hostileTokenAbi, ["HostileToken"]],
      [feeOnTransferTokenAbi, ["FeeOnTransferToken"]],
      [devnetAggregatorAbi, ["DevnetAggregator"]],
      [devnetFarmAbi, ["DevnetFarm"]],
      [
        [...uniswapV2FactoryAbi, ...pairCreatedAbi],
        ["UniswapV2Factory", "UniswapV2FactoryFee25"],
      ],
      [
        [...uniswapV2RouterAbi, ...feeOnTransferRouterAbi],
        ["UniswapV2Router02", "UniswapV2Router02Fee25"],
      ],
      [v3FactoryAbi, ["UniswapV3Factory", "PancakeV3Factory"]],
      [pancakeV3PoolDeployerAbi, ["DevnetPancakeV3PoolDeployer"]],
      [devnetV3RouterAbi, ["DevnetV3Router"]],
      [quoterV2Abi, ["UniswapV3QuoterV2", "DevnetV3Quoter"]],
      // slot0 is left out: the hand-written one lists only the fields both families share.
      [v3PoolAbi.filter((item) => item.type !== "function" || item.name !== "slot0"), ["PancakeV3Pool"]],
    ];
    const missing: string[] = [];
    for (const [abi, names] of uses) {
      for (const name of names) {
        const available = new Set(readArtifact(name).abi.map(signature));
        for (const item of abi)
          if (!available.has(signature(item))) missing.push(`${name}: ${signature(item)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("behavior: nothing in src/ or the devnet but packages/devnet/src/contracts/ imports solc or @uniswap/*", () => {
    const offenders: string[] = [];
    let scanned = 0;
    const entries = [SRC, DEVNET_SRC].flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true }),
    );
    for (const entry of entries) {
      const file = join(entry.parentPath, entry.name);
      if (!entry.isFile() || !entry.name.endsWith(".ts") || file.startsWith(COMPILER_DIR)) continue;
      scanned++;
      const text = readFileSync(file, "utf8");
      if (/(?:from|import\s*\(|require\s*\()\s*["'](?:solc|@uniswap\/)/.test(text)) {
        offenders.push(relative(ROOT, file));
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
    // The compiler folder itself does load them (else this check would prove nothing).
    expect(readFileSync(join(COMPILER_DIR, "compileArtifacts.ts"), "utf8")).toMatch(/import\("solc"\)/);
  });
});

/** An ABI item's kind, name, parameter types and mutability (parameter names may differ). */
function signature(item: Abi[number]): string {
  const params = (list: readonly AbiParameter[]) =>
    list.map((p) => `${typeOf(p)}${"indexed" in p && p.indexed ? " indexed" : ""}`).join(",");
  switch (item.type) {
    case "function":
      return `function ${item.name}(${params(item.inputs)}) ${item.stateMutability} returns (${params(item.outputs)})`;
    case "event":
      return `event ${item.name}(${params(item.inputs)})`;
    case "constructor":
      return `constructor(${params(item.inputs)}) ${item.stateMutability}`;
    default:
      return item.type;
  }
}

function typeOf(param: AbiParameter): string {
  if (!param.type.startsWith("tuple") || !("components" in param)) return param.type;
  return `(${param.components.map(typeOf).join(",")})${param.type.slice("tuple".length)}`;
}
