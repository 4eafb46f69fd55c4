import type { Address } from "viem";
import type { Token } from "../domain/types.js";
import { buildTokenMetadataRead } from "./buildTokenMetadataRead.js";
import { cappedMulticall } from "./cappedMulticall.js";
import type { RpcClient } from "./createRpcClient.js";

/**
 * readTokenMetadata for many tokens in one eth_call (split only where a node's answer limit
 * requires it): each token's Token, or the error its metadata earns on its own (NotErc20Error,
 * InvalidTokenMetadataError), so one hostile token does not refuse the others. An RPC failure
 * rejects the whole read.
 */
export async function readTokenMetadatas(
  client: RpcClient,
  addresses: readonly Address[],
  options: { network: string },
): Promise<(Token | Error)[]> {
  if (addresses.length === 0) return [];
  const reads = addresses.map((address) => buildTokenMetadataRead(address, options.network));
  const results = await cappedMulticall(
    client,
    reads.flatMap((read) => read.calls),
  );
  let next = 0;
  return reads.map((read) => {
    const own = results.slice(next, next + read.calls.length);
    next += read.calls.length;
    try {
      return read.decode(own);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });
}
