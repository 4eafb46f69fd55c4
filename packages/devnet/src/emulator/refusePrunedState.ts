import { BLOCK_ARG_POSITION, blockOf, type RpcError } from "./emulatorRpc.js";
import type { ProviderFaults } from "./providerFaults.js";

/** A pruned node's refusal of a state read at a block whose state it no longer keeps. */
export function refusePrunedState(
  faults: ProviderFaults,
  method: string,
  params: readonly unknown[],
  head: bigint,
): RpcError | undefined {
  const kept = faults.prunedState;
  const position = BLOCK_ARG_POSITION[method];
  if (kept === undefined || position === undefined) return undefined;
  const block = blockOf(params[position] ?? "latest", head);
  if (block === undefined || head - block <= BigInt(kept.blocks)) return undefined;
  // geth names the state root it could not find; any 32 bytes read alike.
  return { code: -32000, message: `missing trie node ${block.toString(16).padStart(64, "0")} (path )` };
}
