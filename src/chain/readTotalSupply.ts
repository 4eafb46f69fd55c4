import { decodeFunctionResult, encodeFunctionData, parseAbi } from "viem";
import type { Address } from "../domain/types.js";
import type { RpcClient } from "./createRpcClient.js";
import { callRaw } from "./tryReadContract.js";

const totalSupplyAbi = parseAbi(["function totalSupply() view returns (uint256)"]);
const CALL_DATA = encodeFunctionData({ abi: totalSupplyAbi, functionName: "totalSupply" });

// An untrusted token may burn what it likes in a view: a plain totalSupply costs a few thousand gas.
const SUPPLY_GAS = 200_000n;

/**
 * A token's totalSupply() at a block (eth_call at that block, gas-capped); undefined when the
 * contract reverts or answers something else. Transport failures throw RpcError.
 */
export async function readTotalSupply(
  client: RpcClient,
  token: Address,
  blockNumber: bigint,
): Promise<bigint | undefined> {
  const result = await callRaw(client, token, CALL_DATA, { blockNumber, gas: SUPPLY_GAS });
  if (!result.ok || result.data.length !== 2 + 64) return undefined;
  return decodeFunctionResult({ abi: totalSupplyAbi, functionName: "totalSupply", data: result.data });
}
