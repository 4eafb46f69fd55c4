import { type TokenBucketState, takeToken } from "../domain/takeToken.js";

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
  const limit = { perSecond, burst };
  const buckets = new Map<string, TokenBucketState>();

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
      }
      // Re-inserted: the Map's order is last-seen order.
      buckets.set(client, bucket);
      return takeToken(bucket, nowMs, limit);
    },
    get size() {
      return buckets.size;
    },
  };
}
