/**
 * A client's token bucket of query cost: its level at `atMs`. The level goes below zero while
 * operations it admitted wait for their turn: later ones queue behind them.
 */
export interface CostBucket {
  level: number;
  atMs: number;
}

/** How a bucket refills: `ratePerSecond` cost units a second, up to `burst`. */
export interface CostBucketLimits {
  ratePerSecond: number;
  burst: number;
}

/** What reserveCost decided: how long the operation waits before it starts (ms), and whether it was admitted. */
export interface CostReservation {
  admitted: boolean;
  waitMs: number;
}

/**
 * Reserves `cost` units of a bucket at `nowMs`: the operation may start once the level, refilled
 * from `atMs` on, reaches its cost, and the cost is charged at once (a reservation), so the next
 * operation waits for the refill after it. An operation costlier than the burst starts from a
 * full bucket (the cost limit admitted it) and leaves the bucket in debt by the difference. A
 * wait longer than `maxWaitMs` is not reserved: nothing is charged, and `waitMs` says when the
 * operation could have started (its Retry-After).
 */
export function reserveCost(
  bucket: CostBucket,
  cost: number,
  nowMs: number,
  limits: CostBucketLimits,
  maxWaitMs: number,
): CostReservation {
  // A clock that went back refills nothing rather than draining the bucket.
  const elapsedMs = Math.max(0, nowMs - bucket.atMs);
  const level = Math.min(limits.burst, bucket.level + (elapsedMs * limits.ratePerSecond) / 1000);
  const need = Math.min(cost, limits.burst);
  const waitMs = level >= need ? 0 : ((need - level) * 1000) / limits.ratePerSecond;
  if (waitMs > maxWaitMs) return { admitted: false, waitMs };
  bucket.level = level - cost;
  bucket.atMs = Math.max(nowMs, bucket.atMs);
  return { admitted: true, waitMs };
}
