import { readFileSync } from "node:fs";
import type { Abi, Hex } from "viem";

/** Every contract artifact in packages/devnet/src/artifacts/ (one `<name>.json` each). */
export type ArtifactName =
  | "DevnetToken"
  | "WrappedNative"
  | "HostileToken"
  | "DevnetAggregator"
  | "FeeOnTransferToken"
  | "DevnetFarm"
  | "UniswapV2Factory"
  | "UniswapV2Router02"
  | "UniswapV2FactoryFee25"
  | "UniswapV2Router02Fee25"
  | "DevnetPancakeV3PoolDeployer"
  | "DevnetV3Router"
  | "DevnetV3Quoter"
  | "UniswapV3Factory"
  | "UniswapV3SwapRouter"
  | "UniswapV3QuoterV2"
  | "PancakeV3Factory"
  | "PancakeV3Pool";

/**
 * A committed contract artifact, written by `npm run contracts` (packages/devnet/src/contracts/cli.ts)
 * and checked against a fresh compile by test/devnet/artifacts.test.ts.
 */
export interface DevnetArtifact {
  /** The Solidity contract's name. */
  contractName: string;
  /** What it was built from: a file of packages/devnet/src/contracts/, or an npm package's build or sources. */
  source: string;
  /** `settings` is absent for an npm build that does not record them. */
  compiler: { version: string; settings?: Record<string, unknown> };
  /** "sha256:<hex>" of the exact compiler input (the npm build file when taken as built). */
  sourceHash: string;
  abi: Abi;
  /** Creation code. */
  bytecode: Hex;
  /** Factories only: keccak256 of the creation code of the pair they deploy (routers hard-code it). */
  pairInitCodeHash?: Hex;
}

const ARTIFACTS_DIR = new URL("../artifacts/", import.meta.url);
const loaded = new Map<ArtifactName, DevnetArtifact>();

/** Reads one committed artifact of packages/devnet/src/artifacts/ (cached). */
export function readArtifact(name: ArtifactName): DevnetArtifact {
  let artifact = loaded.get(name);
  if (artifact === undefined) {
    const file = new URL(`${name}.json`, ARTIFACTS_DIR);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (cause) {
      throw new Error(`devnet: no contract artifact ${file.pathname}: run \`npm run contracts\``, { cause });
    }
    artifact = JSON.parse(text) as DevnetArtifact;
    if (!/^0x(?:[0-9a-f]{2})+$/.test(artifact.bytecode)) {
      throw new Error(`devnet: ${file.pathname} has no bytecode: run \`npm run contracts\``);
    }
    loaded.set(name, artifact);
  }
  return artifact;
}
