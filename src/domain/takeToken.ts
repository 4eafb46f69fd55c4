/** A token bucket's state: tokens on hand, refilled continuously up to the burst. */
export interface TokenBucketState {
  tokens: number;
  /** When `tokens` was last brought up to date (ms, any monotonic clock). */
  at: number;
}

/**
 * The one token-bucket rule (RPC pacing per URL, request limits per client): refills `state` up
 * to `nowMs` and takes a token if there is one (undefined), else returns the ms until there is.
 */
export function takeToken(
  state: TokenBucketState,
  nowMs: number,
  limit: { perSecond: number; burst: number },
): number | undefined {
  state.tokens = Math.min(limit.burst, state.tokens + ((nowMs - state.at) * limit.perSecond) / 1000);
  state.at = nowMs;
  if (state.tokens >= 1) {
    state.tokens -= 1;
    return undefined;
  }
  return Math.max(1, Math.ceil(((1 - state.tokens) * 1000) / limit.perSecond));
}
