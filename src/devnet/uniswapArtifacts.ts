import { createRequire } from "node:module";
import { type Hex, keccak256 } from "viem";

const require = createRequire(import.meta.url);

/** Creation bytecode of the official Uniswap V2 contracts from their npm build artifacts. */
export interface UniswapArtifacts {
  factory: Hex;
  router: Hex;
  /** keccak256 of the pair's creation code: the router computes pair addresses with it. */
  pairInitCodeHash: Hex;
}

let loaded: UniswapArtifacts | undefined;

/** Loads the UniswapV2Factory and UniswapV2Router02 bytecode (and the pair's init-code hash) from @uniswap/v2-core and v2-periphery. */
export function loadUniswapArtifacts(): UniswapArtifacts {
  loaded ??= {
    factory: readBytecode("@uniswap/v2-core/build/UniswapV2Factory.json"),
    router: readBytecode("@uniswap/v2-periphery/build/UniswapV2Router02.json"),
    pairInitCodeHash: keccak256(readBytecode("@uniswap/v2-core/build/UniswapV2Pair.json")),
  };
  return loaded;
}

function readBytecode(path: string): Hex {
  const artifact = require(path) as { bytecode?: string; evm?: { bytecode?: { object?: string } } };
  const code = artifact.bytecode ?? artifact.evm?.bytecode?.object;
  if (code === undefined || code === "") throw new Error(`${path} has no bytecode`);
  return (code.startsWith("0x") ? code : `0x${code}`) as Hex;
}
