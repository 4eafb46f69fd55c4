import { SHARED_TOKEN_BUCKETS } from "./getSharedTokenBucket.js";

/**
 * The calls a second the process's pacers of `network` accept while a provider limits one of
 * them (the sum over its limited URLs' learned paces), or undefined when none is limited.
 */
export function readRpcPace(network: string): number | undefined {
  let sum = 0;
  let limited = false;
  for (const bucket of SHARED_TOKEN_BUCKETS.values()) {
    const { state } = bucket;
    if (state.network !== network || !state.limited) continue;
    limited = true;
    sum += state.perSecond ?? 0;
  }
  return limited ? sum : undefined;
}
