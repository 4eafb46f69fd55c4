/** A per-client token bucket: `take` says whether a request may go on now, or how long to wait. */
export interface ClientRateLimit {
  /** Takes one token for `client`; undefined when allowed, else the milliseconds until one is free. */
  take(client: string, nowMs?: number): number | undefined;
  /** Clients with a bucket (bounded by `maxClients`). */
  readonly size: number;
}

/** Options of createClientRateLimit. */
export interface ClientRateLimitOptions {
  /** Sustained requests per second per client. */
  perSecond: number;
  /** Requests a client may send at once after a quiet spell (default: one second's worth). */
  burst?: number;
  /** Buckets kept at most; the least recently seen client is forgotten first (default 100,000). */
  maxClients?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Creates a per-client rate limit (token buckets, refilled continuously). Memory is bounded:
 * a Map kept in last-seen order drops its oldest client when full; a forgotten client starts
 * again with a full bucket, which only ever errs towards letting a request through.
 */
export function createClientRateLimit(options: ClientRateLimitOptions): ClientRateLimit {
  const { perSecond } = options;
  if (!(perSecond > 0)) throw new RangeError("perSecond must be positive");
  const burst = Math.max(1, options.burst ?? Math.ceil(perSecond));
  const maxClients = Math.max(1, options.maxClients ?? 100_000);
  const buckets = new Map<string, Bucket>();

  return {
    take(client, nowMs = Date.now()) {
      let bucket = buckets.get(client);
      if (bucket === undefined) {
        bucket = { tokens: burst, at: nowMs };
        if (buckets.size >= maxClients) {
          const oldest = buckets.keys().next().value;
          if (oldest !== undefined) buckets.delete(oldest);
        }
      } else {
        buckets.delete(client);
        bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * perSecond);
        bucket.at = nowMs;
      }
      // Re-inserted: the Map's order is last-seen order.
      buckets.set(client, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
    },
    get size() {
      return buckets.size;
    },
  };
}
