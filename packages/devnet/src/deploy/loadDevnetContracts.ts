import type { Hex } from "viem";
import { readArtifact } from "./readArtifact.js";

/** Creation bytecode of the devnet's own tokens (their ABIs live in devnetAbis.ts). */
export interface CompiledContracts {
  DevnetToken: Hex;
  WrappedNative: Hex;
  /** An ERC-20 whose metadata attacks its readers (deployHostileTokens). */
  HostileToken: Hex;
}

/** A Uniswap V2 factory and Router02 build. */
export interface UniswapArtifacts {
  factory: Hex;
  router: Hex;
  /** keccak256 of the pair's creation code: the router computes pair addresses with it. */
  pairInitCodeHash: Hex;
}

/** Creation bytecode of the contracts behind the devnet's real-chain cases. */
export interface ChainCaseContracts {
  /** Uniswap V2 rebuilt with PancakeSwap's 0.25% fee (9975/10000), router and pair agreeing. */
  fee25: UniswapArtifacts;
  DevnetAggregator: Hex;
  FeeOnTransferToken: Hex;
}

/** Creation bytecode of what the BSC-shaped profile adds: another protocol, an aggregator. */
export interface BusyChainContracts {
  /** A yield farm whose harvests only emit logs (DevnetFarm.sol). */
  DevnetFarm: Hex;
  DevnetAggregator: Hex;
}

/**
 * Creation bytecode of the concentrated-liquidity DEXes: the official Uniswap V3 and PancakeSwap
 * V3 builds, and our devnet contracts beside them (packages/devnet/src/contracts/).
 */
export interface V3Contracts {
  uniswapFactory: Hex;
  swapRouter: Hex;
  quoterV2: Hex;
  pancakeFactory: Hex;
  /** The official PancakeV3Pool creation code, handed to our pool deployer. */
  pancakePool: Hex;
  /** DevnetPancakeV3PoolDeployer.sol: the official deployer's equivalent (npm ships no build). */
  pancakePoolDeployer: Hex;
  /** DevnetV3Router.sol: swaps and positions on both families. */
  router: Hex;
  /** DevnetV3Quoter.sol: QuoterV2's interface for PancakeSwap V3. */
  quoter: Hex;
}

/** Everything the devnet deploys. */
export interface DevnetContracts {
  tokens: CompiledContracts;
  /** The official Uniswap V2 build (npm), which charges 0.30%. */
  uniswap: UniswapArtifacts;
  chainCases: ChainCaseContracts;
  busy: BusyChainContracts;
  v3: V3Contracts;
}

/** Reads the devnet's contracts from the committed artifacts in packages/devnet/src/artifacts/ (no compiler at run time). */
export function loadDevnetContracts(): DevnetContracts {
  return {
    tokens: {
      DevnetToken: readArtifact("DevnetToken").bytecode,
      WrappedNative: readArtifact("WrappedNative").bytecode,
      HostileToken: readArtifact("HostileToken").bytecode,
    },
    uniswap: readUniswap("UniswapV2Factory", "UniswapV2Router02"),
    chainCases: {
      fee25: readUniswap("UniswapV2FactoryFee25", "UniswapV2Router02Fee25"),
      DevnetAggregator: readArtifact("DevnetAggregator").bytecode,
      FeeOnTransferToken: readArtifact("FeeOnTransferToken").bytecode,
    },
    busy: {
      DevnetFarm: readArtifact("DevnetFarm").bytecode,
      DevnetAggregator: readArtifact("DevnetAggregator").bytecode,
    },
    v3: {
      uniswapFactory: readArtifact("UniswapV3Factory").bytecode,
      swapRouter: readArtifact("UniswapV3SwapRouter").bytecode,
      quoterV2: readArtifact("UniswapV3QuoterV2").bytecode,
      pancakeFactory: readArtifact("PancakeV3Factory").bytecode,
      pancakePool: readArtifact("PancakeV3Pool").bytecode,
      pancakePoolDeployer: readArtifact("DevnetPancakeV3PoolDeployer").bytecode,
      router: readArtifact("DevnetV3Router").bytecode,
      quoter: readArtifact("DevnetV3Quoter").bytecode,
    },
  };
}

function readUniswap(
  factoryName: "UniswapV2Factory" | "UniswapV2FactoryFee25",
  routerName: "UniswapV2Router02" | "UniswapV2Router02Fee25",
): UniswapArtifacts {
  const factory = readArtifact(factoryName);
  if (factory.pairInitCodeHash === undefined) {
    throw new Error(`devnet: artifact ${factoryName} has no pairInitCodeHash: run \`npm run contracts\``);
  }
  return {
    factory: factory.bytecode,
    router: readArtifact(routerName).bytecode,
    pairInitCodeHash: factory.pairInitCodeHash,
  };
}
