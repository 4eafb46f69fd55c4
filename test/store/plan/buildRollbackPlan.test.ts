import { describe, expect, test } from "vitest";
import type { Trade } from "../../../src/domain/types.js";
import { buildRollbackPlan } from "../../../src/store/plan/buildRollbackPlan.js";
import { drivePlan } from "../../support/drivePlan.js";
import { D0, hash, makeTrade, TRADERS } from "../../support/storeFixtures.js";

const DAY0 = D0 / 86_400;
const ancestor = { blockNumber: 100n, blockHash: hash(100n) };

describe("buildRollbackPlan", () => {
  test("behavior: the removed trades leave their day (senders whose count reached 0 included) and their candles are rebuilt, then blocks, reserves and the checkpoint go back", () => {
    const removed: Trade[] = [101n, 102n].map((block, i) => {
      const trade = makeTrade(i, block, { timestamp: D0 + 600 * (i + 1), sender: TRADERS[0]! });
      return {
        ...trade,
        marks: {
          priceInUsd: 10n ** 18n,
          priceOutUsd: undefined,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn: trade.amountIn, amountOut: trade.amountOut }],
        },
      };
    });
    const steps = drivePlan(buildRollbackPlan(ancestor), (step) => {
      if (step.type === "deleteTradesAbove") return removed;
      if (step.type === "addDayTraders") return [[DAY0, -1]];
      if (step.type === "readTradesBetween" || step.type === "readFinerCandles") return [];
      return undefined;
    });
    expect(steps[0]).toEqual({ type: "deleteTradesAbove", blockNumber: 100n });
    expect(steps[1]).toEqual({
      type: "addDayTraders",
      traders: [{ day: DAY0, sender: TRADERS[0], trades: -2 }],
    });
    expect(steps[2]).toEqual({
      type: "addDayTotals",
      days: [
        {
          day: DAY0,
          volumeUsd: -(removed[0]!.volumeUsd + removed[1]!.volumeUsd),
          tradeCount: -2,
          untrackedCount: 0,
          traderCount: -1,
        },
      ],
    });
    expect(steps[3]).toEqual({ type: "readTradesBetween", from: D0 + 600, to: D0 + 1260 });
    expect(steps.map((step) => step.type).slice(4)).toEqual([
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "deleteBlocksAbove",
      "deleteReservesAbove",
      "deleteV3PricesAbove",
      "deleteV3TicksAbove",
      "deleteLiquidityEventsAbove",
      "deletePoolEventsAbove",
      "setCheckpoint",
    ]);
    expect(steps.slice(-7)).toEqual([
      { type: "deleteBlocksAbove", blockNumber: 100n },
      { type: "deleteReservesAbove", blockNumber: 100n },
      { type: "deleteV3PricesAbove", blockNumber: 100n },
      { type: "deleteV3TicksAbove", blockNumber: 100n },
      { type: "deleteLiquidityEventsAbove", blockNumber: 100n },
      { type: "deletePoolEventsAbove", blockNumber: 100n },
      { type: "setCheckpoint", checkpoint: ancestor },
    ]);
  });

  test("behavior: with no trade above the ancestor, no aggregate or candle is touched; pool state and liquidity events above it still go", () => {
    const steps = drivePlan(buildRollbackPlan(ancestor), (step) =>
      step.type === "deleteTradesAbove" ? [] : undefined,
    );
    expect(steps).toEqual([
      { type: "deleteTradesAbove", blockNumber: 100n },
      { type: "deleteBlocksAbove", blockNumber: 100n },
      { type: "deleteReservesAbove", blockNumber: 100n },
      { type: "deleteV3PricesAbove", blockNumber: 100n },
      { type: "deleteV3TicksAbove", blockNumber: 100n },
      { type: "deleteLiquidityEventsAbove", blockNumber: 100n },
      { type: "deletePoolEventsAbove", blockNumber: 100n },
      { type: "setCheckpoint", checkpoint: ancestor },
    ]);
  });

  test("behavior: removed trades without candle marks leave their day but read no candle", () => {
    const steps = drivePlan(buildRollbackPlan(ancestor), (step) => {
      if (step.type === "deleteTradesAbove") return [makeTrade(0, 101n)];
      if (step.type === "addDayTraders") return [];
      return undefined;
    });
    expect(steps.map((step) => step.type)).toEqual([
      "deleteTradesAbove",
      "addDayTraders",
      "addDayTotals",
      "deleteBlocksAbove",
      "deleteReservesAbove",
      "deleteV3PricesAbove",
      "deleteV3TicksAbove",
      "deleteLiquidityEventsAbove",
      "deletePoolEventsAbove",
      "setCheckpoint",
    ]);
  });
});
