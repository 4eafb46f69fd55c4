import { type Address, zeroAddress } from "viem";
import { factoryAbi } from "./abis.js";
import type { RpcClient } from "./createRpcClient.js";
import { tryReadContract } from "./tryReadContract.js";

/**
 * The pair of tokenA and tokenB registered in `factory` (factory.getPair), lowercase; the zero
 * address when there is none or `factory` is not a factory. Transport failures throw RpcError.
 */
export async function getPairAddress(
  client: RpcClient,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
): Promise<Address> {
  const result = await tryReadContract(client, {
    address: factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [tokenA, tokenB],
  });
  return typeof result === "string" ? (result.toLowerCase() as Address) : zeroAddress;
}
