import { describe, expect, test } from "vitest";
import { type CostBucket, reserveCost } from "../../src/graphql/plugins/reserveCost.js";

// 100 cost units a second, up to 1,000: the clock is the `nowMs` each call passes.
const LIMITS = { ratePerSecond: 100, burst: 1_000 };
const full = (atMs = 0): CostBucket => ({ level: LIMITS.burst, atMs });

describe("reserveCost", () => {
  test("args: a full bucket admits up to its burst at once; the next operation waits for the refill", () => {
    const bucket = full();
    expect(reserveCost(bucket, 600, 0, LIMITS, 0)).toEqual({ admitted: true, waitMs: 0 });
    // 400 left, 600 needed: 200 units at 100 a second.
    expect(reserveCost(bucket, 600, 0, LIMITS, 10_000)).toEqual({ admitted: true, waitMs: 2_000 });
    expect(bucket.level).toBe(-200);
    // Reserved in order: the next one waits behind the debt, then for its own cost.
    expect(reserveCost(bucket, 100, 0, LIMITS, 10_000)).toEqual({ admitted: true, waitMs: 3_000 });
    // Half a second later, 50 units came back.
    expect(reserveCost(bucket, 0, 500, LIMITS, 10_000)).toEqual({ admitted: true, waitMs: 2_500 });
  });

  test("behavior: the refill stops at the burst, however long the client was idle", () => {
    const bucket = full();
    reserveCost(bucket, 1_000, 0, LIMITS, 0);
    expect(reserveCost(bucket, 1_000, 3_600_000, LIMITS, 0)).toEqual({ admitted: true, waitMs: 0 });
    expect(reserveCost(bucket, 1, 3_600_000, LIMITS, 0)).toEqual({ admitted: false, waitMs: 10 });
  });

  test("behavior: an operation costlier than the burst starts from a full bucket and leaves the difference as debt", () => {
    const bucket = full();
    expect(reserveCost(bucket, 2_500, 0, LIMITS, 0)).toEqual({ admitted: true, waitMs: 0 });
    expect(bucket.level).toBe(-1_500);
    // The next one waits for the debt and then its own cost: 1,510 units.
    expect(reserveCost(bucket, 10, 0, LIMITS, 0)).toEqual({ admitted: false, waitMs: 15_100 });
    // Sustained, such operations run at rate / cost: one every 25 s.
    expect(reserveCost(bucket, 2_500, 25_000, LIMITS, 0)).toEqual({ admitted: true, waitMs: 0 });
  });

  test("error: a wait beyond maxWaitMs is refused and charges nothing", () => {
    const bucket = full();
    reserveCost(bucket, 1_000, 0, LIMITS, 0);
    const before = { ...bucket };
    expect(reserveCost(bucket, 500, 1_000, LIMITS, 3_999)).toEqual({ admitted: false, waitMs: 4_000 });
    expect(bucket).toEqual(before);
    expect(reserveCost(bucket, 500, 1_000, LIMITS, 4_000)).toEqual({ admitted: true, waitMs: 4_000 });
  });

  test("behavior: a clock that goes back refills nothing and keeps the later time", () => {
    const bucket: CostBucket = { level: 0, atMs: 10_000 };
    expect(reserveCost(bucket, 100, 9_000, LIMITS, 60_000)).toEqual({ admitted: true, waitMs: 1_000 });
    expect(bucket).toEqual({ level: -100, atMs: 10_000 });
  });
});
