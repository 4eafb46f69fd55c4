import { type Address, encodeFunctionData } from "viem";
import { factoryAbi } from "./abis.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";
import { type BatchedRead, runBatchedReads } from "./runBatchedReads.js";

// allPairs(i) reads one storage slot of a known factory: a few thousand gas.
const POOL_READ_GAS = 30_000n;

function countRead(factory: Address): BatchedRead<bigint | undefined> {
  return {
    calls: [
      {
        to: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: "allPairsLength" }),
        gas: METADATA_GAS,
        maxReturnBytes: 32,
      },
    ],
    decode: ([result]) => {
      const value = decodeCallResult(factoryAbi, "allPairsLength", result);
      return typeof value === "bigint" ? value : undefined;
    },
  };
}

function poolRead(factory: Address, index: number): BatchedRead<Address | undefined> {
  return {
    calls: [
      {
        to: factory,
        data: encodeFunctionData({ abi: factoryAbi, functionName: "allPairs", args: [BigInt(index)] }),
        gas: POOL_READ_GAS,
        maxReturnBytes: 32,
      },
    ],
    decode: ([result]) => {
      const value = decodeCallResult(factoryAbi, "allPairs", result);
      return typeof value === "string" ? (value.toLowerCase() as Address) : undefined;
    },
  };
}

/**
 * Every pool the Uniswap-V2-style `factories` created (`allPairs`), at the latest block: one
 * eth_call for their counts, then the addresses (cappedMulticall packs about a hundred a call).
 * Undefined when together they hold more than `limit` pools or a factory cannot say (no
 * `allPairsLength`, a failed read): the caller then does without the list.
 */
export async function listFactoryPools(
  client: RpcClient,
  factories: readonly Address[],
  limit: number,
): Promise<Address[] | undefined> {
  const counts = await runBatchedReads(client, factories.map(countRead));
  if (counts.some((count) => count === undefined)) return undefined;
  const total = counts.reduce<bigint>((sum, count) => sum + count!, 0n);
  if (total > BigInt(limit)) return undefined;
  const reads = factories.flatMap((factory, i) =>
    Array.from({ length: Number(counts[i]!) }, (_, index) => poolRead(factory, index)),
  );
  if (reads.length === 0) return [];
  const pools = await runBatchedReads(client, reads);
  if (pools.some((pool) => pool === undefined)) return undefined;
  return [...new Set(pools as Address[])];
}
