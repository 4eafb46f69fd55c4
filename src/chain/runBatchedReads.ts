import { cappedMulticall } from "./cappedMulticall.js";
import type { RpcClient } from "./createRpcClient.js";
import type { CappedCall, CappedCallResult } from "./decodeCappedMulticall.js";

/** A read made of capped calls, and how their results decode into its value. */
export interface BatchedRead<T> {
  readonly calls: readonly CappedCall[];
  /** Gets this read's results only, in the order of `calls`; may throw (e.g. NotErc20Error). */
  decode(results: readonly CappedCallResult[]): T;
}

/**
 * Runs every call of `reads` in one cappedMulticall (one eth_call, at `blockNumber` or latest)
 * and decodes each read from its own results, in order: the first decode that throws is thrown.
 */
export async function runBatchedReads<const T extends readonly unknown[]>(
  client: RpcClient,
  reads: { readonly [K in keyof T]: BatchedRead<T[K]> },
  options: { blockNumber?: bigint } = {},
): Promise<T> {
  const list = reads as readonly BatchedRead<unknown>[];
  const results = await cappedMulticall(
    client,
    list.flatMap((read) => read.calls),
    options,
  );
  let next = 0;
  return list.map((read) => {
    const own = results.slice(next, next + read.calls.length);
    next += read.calls.length;
    return read.decode(own);
  }) as unknown as T;
}
