import { RPC_PACES } from "../lib/rpcPaces.js";
import { createTokenBucket, type PaceOptions, type TokenBucket } from "./createTokenBucket.js";

/**
 * The process's pacers by URL (and ceiling): shared by every client of the process, because the
 * provider limits the process, not one client. Read by /metrics and the network status.
 */
export const SHARED_TOKEN_BUCKETS = new Map<string, TokenBucket>();

/** The process's pacer for `url` at this ceiling and burst, created on first use (see createTokenBucket). */
export function getSharedTokenBucket(
  url: string,
  ceiling: number,
  burst: number,
  options: PaceOptions = {},
): TokenBucket {
  const key = `${ceiling}/${burst} ${url}`;
  let bucket = SHARED_TOKEN_BUCKETS.get(key);
  if (bucket === undefined) {
    bucket = createTokenBucket(ceiling, burst, options);
    SHARED_TOKEN_BUCKETS.set(key, bucket);
    RPC_PACES.set(key, bucket.state);
  }
  return bucket;
}
