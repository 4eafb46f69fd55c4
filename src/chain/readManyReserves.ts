import { type Address, encodeFunctionData } from "viem";
import { RpcError } from "../errors.js";
import { pairAbi } from "./abis.js";
import { METADATA_GAS } from "./buildTokenMetadataRead.js";
import { cappedMulticall } from "./cappedMulticall.js";
import type { RpcClient } from "./createRpcClient.js";
import { decodeCallResult } from "./decodeCallResult.js";
import { type Reserves, readReserves } from "./readReserves.js";

const GET_RESERVES = encodeFunctionData({ abi: pairAbi, functionName: "getReserves" });

/**
 * readReserves for many pairs at `blockNumber` in one eth_call: a pair that answers nothing there
 * did not exist yet (0/0). When the node cannot serve that block's state (pruned), each pair is
 * read as readReserves does (latest instead).
 */
export async function readManyReserves(
  client: RpcClient,
  pairs: readonly Address[],
  blockNumber: bigint,
): Promise<Reserves[]> {
  if (pairs.length === 0) return [];
  let results: Awaited<ReturnType<typeof cappedMulticall>>;
  try {
    results = await cappedMulticall(
      client,
      pairs.map((pair) => ({ to: pair, data: GET_RESERVES, gas: METADATA_GAS, maxReturnBytes: 96 })),
      { blockNumber },
    );
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return Promise.all(pairs.map((pair) => readReserves(client, pair, blockNumber)));
  }
  return results.map((result) => {
    const value = decodeCallResult(pairAbi, "getReserves", result);
    if (!Array.isArray(value)) return { reserve0: 0n, reserve1: 0n };
    const [reserve0, reserve1] = value as [bigint, bigint, number];
    return { reserve0, reserve1 };
  });
}
