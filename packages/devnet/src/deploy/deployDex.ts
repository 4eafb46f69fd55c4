import { type Address, encodeDeployData, getContractAddress, type Hash } from "viem";
import type { ChainWriter } from "../anvil/createChainWriter.js";
import type { DevnetDex } from "../devnetTypes.js";
import { uniswapV2FactoryAbi, uniswapV2RouterAbi } from "./devnetAbis.js";
import type { UniswapArtifacts } from "./loadDevnetContracts.js";

/** Sends the deployment of one Uniswap V2 factory and its Router02 (not mined yet). */
export async function deployDex(
  writer: ChainWriter,
  options: { name: string; deployer: Address; wrapped: Address; artifacts: UniswapArtifacts },
): Promise<{ dex: DevnetDex; hashes: Hash[] }> {
  const { deployer, artifacts } = options;
  const factoryNonce = writer.reserveNonce(deployer);
  const routerNonce = writer.reserveNonce(deployer);
  const factory = getContractAddress({
    from: deployer,
    nonce: BigInt(factoryNonce),
  }).toLowerCase() as Address;
  const router = getContractAddress({ from: deployer, nonce: BigInt(routerNonce) }).toLowerCase() as Address;
  const hashes = await writer.send([
    {
      from: deployer,
      nonce: factoryNonce,
      gas: 8_000_000n,
      data: encodeDeployData({ abi: uniswapV2FactoryAbi, bytecode: artifacts.factory, args: [deployer] }),
    },
    {
      from: deployer,
      nonce: routerNonce,
      gas: 8_000_000n,
      data: encodeDeployData({
        abi: uniswapV2RouterAbi,
        bytecode: artifacts.router,
        args: [factory, options.wrapped],
      }),
    },
  ]);
  // The npm artifacts' pair always charges 0.30%, so every devnet DEX is configured with 30.
  return { dex: { name: options.name, factory, router, feeBps: 30 }, hashes };
}
