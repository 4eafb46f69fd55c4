import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { factoryAbi } from "./abis.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import { decodeCallResult } from "./decodeCallResult.js";
import type { BatchedRead } from "./runBatchedReads.js";

/**
 * The call of factory.getPair(tokenA, tokenB) and its decoding as getPairAddress returns it: the
 * pair, lowercase, or the zero address when there is none or `factory` is not a factory.
 */
export function buildPairAddressRead(
  factory: Address,
  tokenA: Address,
  tokenB: Address,
): BatchedRead<Address> {
  return {
    calls: [
      {
        to: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: "getPair", args: [tokenA, tokenB] }),
        // A configured factory's getPair costs a few thousand gas, even behind a proxy.
        gas: METADATA_GAS,
        maxReturnBytes: 32,
      },
    ],
    decode([result]) {
      const pair = decodeCallResult(factoryAbi, "getPair", result);
      return typeof pair === "string" ? (pair.toLowerCase() as Address) : zeroAddress;
    },
  };
}
