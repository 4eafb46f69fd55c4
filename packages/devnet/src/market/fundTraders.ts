import { type Address, encodeFunctionData, type Hash } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import { devnetTokenAbi, wrappedNativeAbi } from "../deploy/devnetAbis.js";
import type { DevnetToken } from "../devnetTypes.js";
import { usdToUnits } from "../usdToUnits.js";

/**
 * Sends the funding of every trader: `usdPerToken` of each token minted by the deployer and the
 * same worth of native coin wrapped by the trader (native coin itself comes from anvil's
 * --balance). Not mined yet.
 */
export async function fundTraders(
  writer: ChainWriter,
  options: {
    deployer: Address;
    traders: readonly Address[];
    tokens: Iterable<DevnetToken>;
    usdPerToken: bigint;
  },
): Promise<Hash[]> {
  const txs: TxRequest[] = [];
  for (const token of options.tokens) {
    const amount = usdToUnits(options.usdPerToken, token.priceE18, token.decimals);
    for (const trader of options.traders) {
      txs.push(
        token.isWrappedNative
          ? {
              from: trader,
              to: token.address,
              gas: 100_000n,
              value: amount,
              data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }),
            }
          : {
              from: options.deployer,
              to: token.address,
              gas: 120_000n,
              data: encodeFunctionData({ abi: devnetTokenAbi, functionName: "mint", args: [trader, amount] }),
            },
      );
    }
  }
  return writer.send(txs);
}
