/**
 * A rate limit's token bucket (the algorithm's name: its tokens are permits to send a request,
 * never ERC-20s): permits on hand, refilled continuously up to the burst.
 */
export interface RateLimitBucket {
  /** Permits on hand (fractional while refilling). */
  tokens: number;
  /** When `tokens` was last brought up to date (ms, any monotonic clock). */
  at: number;
}

/**
 * The one rate-limit rule (RPC pacing per URL): refills `bucket` up to `nowMs` and takes a permit
 * if there is one (undefined), else returns the ms until there is.
 */
export function takeRateLimitToken(
  bucket: RateLimitBucket,
  nowMs: number,
  limit: { perSecond: number; burst: number },
): number | undefined {
  bucket.tokens = Math.min(limit.burst, bucket.tokens + ((nowMs - bucket.at) * limit.perSecond) / 1000);
  bucket.at = nowMs;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return undefined;
  }
  return Math.max(1, Math.ceil(((1 - bucket.tokens) * 1000) / limit.perSecond));
}
