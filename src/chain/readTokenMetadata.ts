import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, hexToString, size } from "viem";
import type { Token } from "../domain/types.js";
import { NotErc20Error, RpcError } from "../errors.js";
import { erc20Abi, erc20Bytes32Abi } from "./abis.js";
import { errorText } from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";
import { callRaw } from "./tryReadContract.js";

// name() and symbol() return a string on standard tokens and bytes32 on early ones (MKR, SAI).
function decodeText(data: Hex, functionName: "name" | "symbol"): string | undefined {
  if (data === "0x") return undefined;
  try {
    return decodeFunctionResult({ abi: erc20Abi, functionName, data }).replaceAll("\u0000", "").trim();
  } catch {
    if (size(data) !== 32) return undefined;
    const raw = decodeFunctionResult({ abi: erc20Bytes32Abi, functionName, data });
    return hexToString(raw).replaceAll("\u0000", "").trim();
  }
}

async function readText(client: RpcClient, address: Address, functionName: "name" | "symbol") {
  const result = await callRaw(client, address, encodeFunctionData({ abi: erc20Abi, functionName }));
  return result.ok ? decodeText(result.data, functionName) : undefined;
}

/**
 * Name, symbol and decimals of an ERC-20, read with eth_call at the latest block (old state may be
 * pruned). Throws NotErc20Error when the address has no code or no working decimals(), and
 * RpcError when the chain cannot be reached.
 */
export async function readTokenMetadata(
  client: RpcClient,
  address: Address,
  options: { network?: string } = {},
): Promise<Token> {
  const lower = address.toLowerCase() as Address;
  const network = options.network ?? client.chain?.name ?? "this network";
  const notErc20 = (reason: string) => new NotErc20Error({ address: lower, network, reason });
  let code: Hex | undefined;
  try {
    code = await client.getCode({ address: lower });
  } catch (error) {
    throw new RpcError(`eth_getCode of ${lower} failed.`, { details: errorText(error), cause: error });
  }
  if (code === undefined || code === "0x") throw notErc20("there is no contract code at this address");

  const [decimalsResult, name, symbol] = await Promise.all([
    callRaw(client, lower, encodeFunctionData({ abi: erc20Abi, functionName: "decimals" })),
    readText(client, lower, "name"),
    readText(client, lower, "symbol"),
  ]);
  if (!decimalsResult.ok) throw notErc20("decimals() reverted");
  let decimals: number;
  try {
    decimals = decodeFunctionResult({ abi: erc20Abi, functionName: "decimals", data: decimalsResult.data });
  } catch {
    throw notErc20("decimals() returned no uint8");
  }
  return { address: lower, name: name || symbol || "", symbol: symbol || "", decimals };
}
