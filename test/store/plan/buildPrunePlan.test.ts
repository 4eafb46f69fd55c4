import { describe, expect, test } from "vitest";
import { buildPrunePlan } from "../../../src/store/plan/buildPrunePlan.js";
import { drivePlan } from "../../support/drivePlan.js";
import { D0 } from "../../support/storeFixtures.js";

describe("buildPrunePlan", () => {
  test("args: trades and liquidity events go by timestamp; day aggregates and candles by whole days before the one tradesBefore falls in; blocks, reserves and V3 pool state by number", () => {
    const day = D0 / 86_400;
    const steps = drivePlan(buildPrunePlan({ tradesBefore: D0 + 86_400 + 5 * 3_600, blocksBelow: 77n }));
    expect(steps).toEqual([
      { type: "deleteTradesBefore", timestamp: D0 + 86_400 + 5 * 3_600 },
      { type: "deleteDaysBefore", day: day + 1 },
      { type: "deleteCandlesBefore", day: day + 1 },
      { type: "deleteBlocksBelow", blockNumber: 77n },
      { type: "pruneReservesBelow", blockNumber: 77n },
      { type: "pruneV3PricesBelow", blockNumber: 77n },
      { type: "pruneV3TicksBelow", blockNumber: 77n },
      { type: "deleteLiquidityEventsBefore", timestamp: D0 + 86_400 + 5 * 3_600 },
      { type: "deletePoolEventsBefore", timestamp: D0 + 86_400 + 5 * 3_600 },
    ]);
    // A day's first second keeps that day whole; its last second too.
    expect(drivePlan(buildPrunePlan({ tradesBefore: D0, blocksBelow: 0n }))[1]).toEqual({
      type: "deleteDaysBefore",
      day,
    });
    expect(drivePlan(buildPrunePlan({ tradesBefore: D0 + 86_399, blocksBelow: 0n }))[2]).toEqual({
      type: "deleteCandlesBefore",
      day,
    });
  });
});
