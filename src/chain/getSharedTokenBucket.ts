import { createTokenBucket, type TokenBucket } from "./createTokenBucket.js";

// Shared by every client of the process: the provider limits the process, not one client.
const buckets = new Map<string, TokenBucket>();

/** The process's token bucket for `url` at this rate and burst, created on first use. */
export function getSharedTokenBucket(url: string, perSecond: number, burst: number): TokenBucket {
  const key = `${perSecond}/${burst} ${url}`;
  let bucket = buckets.get(key);
  if (bucket === undefined) {
    bucket = createTokenBucket(perSecond, burst);
    buckets.set(key, bucket);
  }
  return bucket;
}
