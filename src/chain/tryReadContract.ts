import {
  type Abi,
  type Address,
  type ContractFunctionName,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
} from "viem";
import { RpcError } from "../errors.js";
import { classifyRpcError, errorText } from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";

/** Outcome of an eth_call that reached the chain: its raw return data, or the revert. */
export type RawCallResult = { ok: true; data: Hex } | { ok: false; reason: "revert" };

/** Where and how an eth_call runs: at a block (default latest), with a gas limit (default the node's). */
export interface CallOptions {
  blockNumber?: bigint;
  /** Caps what the call may burn: untrusted contracts (token metadata) get little. */
  gas?: bigint;
}

/**
 * eth_call that tells the chain's answer (data, possibly empty "0x", or a revert, out of gas
 * included) from a failure to ask (thrown as RpcError after the client's retries). Without `to`,
 * `data` is creation code the node runs without deploying it (a deployless read).
 */
export async function callRaw(
  client: RpcClient,
  to: Address | undefined,
  data: Hex,
  options: CallOptions = {},
): Promise<RawCallResult> {
  const { blockNumber, gas } = options;
  try {
    const result = await client.call({
      ...(to === undefined ? {} : { to }),
      data,
      ...(blockNumber === undefined ? {} : { blockNumber }),
      ...(gas === undefined ? {} : { gas }),
    });
    return { ok: true, data: result.data ?? "0x" };
  } catch (error) {
    if (classifyRpcError(error, "eth_call") === "revert") return { ok: false, reason: "revert" };
    const at = blockNumber === undefined ? "latest" : `block ${blockNumber}`;
    const target = to === undefined ? "(deployless)" : `to ${to.toLowerCase()}`;
    throw new RpcError(`eth_call ${target} at ${at} failed.`, {
      details: errorText(error),
      cause: error,
    });
  }
}

/**
 * Calls a view function and decodes its result; undefined when the contract reverted, has no
 * code, or returned data of the wrong shape. Transport failures throw RpcError.
 */
export async function tryReadContract<
  const abi extends Abi,
  name extends ContractFunctionName<abi, "view" | "pure">,
>(
  client: RpcClient,
  args: { address: Address; abi: abi; functionName: name; args?: readonly unknown[]; blockNumber?: bigint },
): Promise<unknown> {
  const data = encodeFunctionData({
    abi: args.abi,
    functionName: args.functionName,
    args: args.args ?? [],
  } as Parameters<typeof encodeFunctionData>[0]);
  const result = await callRaw(
    client,
    args.address,
    data,
    args.blockNumber === undefined ? {} : { blockNumber: args.blockNumber },
  );
  if (!result.ok || result.data === "0x") return undefined;
  try {
    return decodeFunctionResult({
      abi: args.abi,
      functionName: args.functionName,
      data: result.data,
    } as Parameters<typeof decodeFunctionResult>[0]);
  } catch {
    return undefined;
  }
}
