import { createPublicClient, http } from "viem";

/** Readings by chain, what they read and the hash of the block they end at. */
const readings = new Map<string, Promise<unknown>>();

/**
 * `read()` once per chain state: a reading of the chain a test compares with, keyed by `what` and
 * the hash of the block it ends at (`atBlock`, default the head). Tests that leave the chain as it
 * was, and both stores' runs of a file, share one reading; a mined block or a reorg reads anew.
 */
export async function readOncePerChainState<T>(
  rpcUrl: string,
  what: string,
  read: () => Promise<T>,
  atBlock?: bigint,
): Promise<T> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const { hash } = await (atBlock === undefined
    ? client.getBlock({ blockTag: "latest" })
    : client.getBlock({ blockNumber: atBlock }));
  const key = `${rpcUrl}:${what}:${hash}`;
  let reading = readings.get(key);
  if (reading === undefined) {
    reading = read();
    readings.set(key, reading);
  }
  return reading as Promise<T>;
}
