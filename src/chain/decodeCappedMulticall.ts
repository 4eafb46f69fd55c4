import { type Address, decodeAbiParameters, type Hex, parseAbiParameters } from "viem";

/** One read-only call run by cappedMulticall. */
export interface CappedCall {
  to: Address;
  data: Hex;
  /** Gas the call may burn: what an untrusted contract may cost. */
  gas: bigint;
  /** Bytes of its answer that are kept; the rest never leaves the node. */
  maxReturnBytes: number;
}

/**
 * Outcome of a capped call: its answer's first `maxReturnBytes` bytes and its full size, or a
 * failure (reverted, ran out of its gas, or hit an invalid opcode).
 */
export type CappedCallResult = { ok: true; data: Hex; size: number } | { ok: false };

const ANSWER = parseAbiParameters("(bool success, uint256 size, bytes data)[]");

/**
 * The results of CappedMulticall.sol's answer to `calls`, in order: a success keeps its answer's
 * first bytes (at most the call's maxReturnBytes) and the full size. Throws when the answer is
 * not one result per call, or keeps more or fewer bytes than the caps allow.
 */
export function decodeCappedMulticall(answer: Hex, calls: readonly CappedCall[]): CappedCallResult[] {
  const [results] = decodeAbiParameters(ANSWER, answer);
  if (results.length !== calls.length) {
    throw new Error(`expected ${calls.length} results, got ${results.length}`);
  }
  return results.map((result, i) => {
    if (!result.success) return { ok: false };
    const kept = (result.data.length - 2) / 2;
    const cap = calls[i]!.maxReturnBytes;
    const expected = result.size < BigInt(cap) ? Number(result.size) : cap;
    if (kept !== expected) {
      throw new Error(`result ${i} kept ${kept} of ${result.size} bytes with a cap of ${cap}`);
    }
    return { ok: true, data: result.data, size: Number(result.size) };
  });
}
