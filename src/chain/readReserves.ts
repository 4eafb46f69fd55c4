import type { Address } from "viem";
import { RpcError } from "../errors.js";
import { pairAbi } from "./abis.js";
import type { RpcClient } from "./createRpcClient.js";
import { tryReadContract } from "./tryReadContract.js";

/** Reserves of a pair as getReserves() returns them. */
export interface Reserves {
  reserve0: bigint;
  reserve1: bigint;
}

async function read(client: RpcClient, pair: Address, blockNumber?: bigint): Promise<Reserves | undefined> {
  const result = await tryReadContract(client, {
    address: pair,
    abi: pairAbi,
    functionName: "getReserves",
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
  if (!Array.isArray(result)) return undefined;
  const [reserve0, reserve1] = result as [bigint, bigint, number];
  return { reserve0, reserve1 };
}

/**
 * getReserves() of a pair at `blockNumber` (latest when omitted). When the node cannot serve that
 * block's state (pruned, not an archive node), it reads the latest reserves instead: the
 * indexer's Sync logs correct them. A pair that did not exist yet at that block has 0/0.
 */
export async function readReserves(
  client: RpcClient,
  pair: Address,
  blockNumber?: bigint,
): Promise<Reserves> {
  const address = pair.toLowerCase() as Address;
  if (blockNumber !== undefined) {
    try {
      return (await read(client, address, blockNumber)) ?? { reserve0: 0n, reserve1: 0n };
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      // Fall through to latest.
    }
  }
  const latest = await read(client, address);
  if (latest === undefined) {
    throw new RpcError(`getReserves() of ${address} returned nothing: it is not a Uniswap-V2-style pair.`);
  }
  return latest;
}
