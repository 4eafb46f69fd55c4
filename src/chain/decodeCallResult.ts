import { type Abi, type ContractFunctionName, decodeFunctionResult } from "viem";
import type { CappedCallResult } from "./decodeCappedMulticall.js";

/**
 * A capped call's answer decoded as `functionName` returns it, as tryReadContract decodes an
 * eth_call's: undefined when the call failed, answered nothing, or answered the wrong shape.
 */
export function decodeCallResult<const abi extends Abi>(
  abi: abi,
  functionName: ContractFunctionName<abi, "view" | "pure">,
  result: CappedCallResult | undefined,
): unknown {
  if (result === undefined || !result.ok || result.size === 0) return undefined;
  try {
    return decodeFunctionResult({ abi, functionName, data: result.data } as Parameters<
      typeof decodeFunctionResult
    >[0]);
  } catch {
    return undefined;
  }
}
