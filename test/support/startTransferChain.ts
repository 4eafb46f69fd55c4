import { createChainWriter } from "@swapgraph/devnet/anvil/createChainWriter.js";
import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { devnetTokenAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import { type Address, encodeDeployData, encodeFunctionData, getContractAddress, type Hash } from "viem";

/** A small anvil chain whose blocks hold ERC-20 Transfer logs: enough to exercise eth_getLogs limits. */
export interface TransferChain {
  anvil: Anvil;
  token: Address;
  /** The unlocked account that deployed the token and sent the transfers. */
  deployer: Address;
  /** First block after the deployment. */
  firstBlock: bigint;
  head: bigint;
  /** Transfer transactions by block. */
  txs: Map<bigint, Hash[]>;
}

/** Starts anvil, deploys a token and mines `blocks` blocks, block i holding i % 4 transfers. */
export async function startTransferChain(blocks = 30): Promise<TransferChain> {
  const anvil = await startAnvil({ chainId: 31337, genesisTimestamp: Math.floor(Date.now() / 1000) - 7200 });
  try {
    const writer = createChainWriter(anvil.rpcUrl);
    const [first] = await writer.client.request({ method: "eth_accounts", params: [] });
    const deployer = first!.toLowerCase() as Address;
    const nonce = writer.reserveNonce(deployer);
    const token = getContractAddress({ from: deployer, nonce: BigInt(nonce) }).toLowerCase() as Address;
    await writer.send([
      {
        from: deployer,
        nonce,
        gas: 3_000_000n,
        data: encodeDeployData({
          abi: devnetTokenAbi,
          bytecode: readArtifact("DevnetToken").bytecode,
          args: ["Transfers", "TRF", 18, 10n ** 30n],
        }),
      },
    ]);
    let at = Math.floor(Date.now() / 1000) - 3600;
    await writer.mine(at);
    const firstBlock = (await writer.client.getBlockNumber()) + 1n;
    const txs = new Map<bigint, Hash[]>();
    for (let i = 0; i < blocks; i++) {
      const hashes = await writer.send(
        Array.from({ length: i % 4 }, (_, k) => ({
          from: deployer,
          to: token,
          gas: 100_000n,
          data: encodeFunctionData({
            abi: devnetTokenAbi,
            functionName: "transfer",
            args: [`0x${(i * 4 + k + 1).toString(16).padStart(40, "0")}` as Address, 1n],
          }),
        })),
      );
      at += 3;
      await writer.mine(at);
      txs.set(firstBlock + BigInt(i), hashes);
    }
    return { anvil, token, deployer, firstBlock, head: await writer.client.getBlockNumber(), txs };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
