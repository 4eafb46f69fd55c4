import { describe, expect, test } from "vitest";
import { comparePositions, type TradePosition } from "../../../src/domain/market.js";
import type { PoolEvent, Trade, TradeMarks } from "../../../src/domain/types.js";
import { buildCandleRows } from "../../../src/store/buildCandles.js";
import { buildCommitPlan } from "../../../src/store/plan/buildCommitPlan.js";
import type { WriteStep } from "../../../src/store/plan/writeSteps.js";
import { drivePlan } from "../../support/drivePlan.js";
import { addr, D0, hash, makeBatch, makeTrade, POOL_A, TRADERS } from "../../support/storeFixtures.js";
import {
  liquidityEvent,
  MAX_UINT128,
  MIN_INT128,
  price,
  tickRow,
  V3_POOL_A,
  V3_POOL_B,
  v3Batch,
} from "../../support/v3Fixtures.js";

const marks = (trade: Trade, priceInUsd: bigint): TradeMarks => ({
  priceInUsd,
  priceOutUsd: 2n * 10n ** 18n,
  native: undefined,
  hops: [{ zeroForOne: true, amountIn: trade.amountIn, amountOut: trade.amountOut }],
});

/** A trade of block 10 (one minute in) with candle marks, from sender 0 or 1. */
function marked(i: number, overrides: Partial<Trade> = {}): Trade {
  const trade = makeTrade(i, 10n, { timestamp: D0 + 60 + i, sender: TRADERS[i % 2]!, ...overrides });
  return { ...trade, marks: marks(trade, 10n ** 18n + BigInt(i)) };
}

const types = (steps: readonly WriteStep[]) => steps.map((step) => step.type);

/**
 * A store holding `trades` (the newest stored ones) until deleteTradesOf removes them all, and
 * `before` as its newest position then: answers deleteTradesOf and readLastPosition.
 */
function storedUntilDeleted(trades: readonly Trade[], before: TradePosition) {
  let deleted = false;
  return (step: WriteStep): unknown => {
    if (step.type === "deleteTradesOf") {
      deleted = true;
      return trades;
    }
    if (step.type !== "readLastPosition") return undefined;
    const newest = [...trades].sort(comparePositions).at(-1)!;
    return deleted
      ? before
      : { blockNumber: newest.blockNumber, txIndex: newest.txIndex, logIndex: newest.logIndex };
  };
}
const DAY0 = D0 / 86_400;

describe("buildCommitPlan", () => {
  test("behavior: new trades that follow the stored ones are inserted with no delete, counted into their day and appended to the candles, checkpoint last", () => {
    const trades = [marked(0), marked(1), marked(2)];
    const batch = makeBatch(
      trades,
      [9n, 10n],
      [{ pair: POOL_A, blockNumber: 10n, logIndex: 3, reserve0: 5n, reserve1: 6n }],
    );
    const steps = drivePlan(buildCommitPlan("bsc", batch), (step) => {
      if (step.type === "readLastPosition") return { blockNumber: 9n, txIndex: 4, logIndex: 40 };
      // Two distinct senders are new that day.
      if (step.type === "addDayTraders") return [[DAY0, 2]];
      return undefined;
    });
    // Every trade lies in a transaction after the newest stored one: none of theirs is stored.
    expect(types(steps)).toEqual([
      "readLastPosition",
      "insertTrades",
      "addDayTraders",
      "addDayTotals",
      "mergeCandles",
      "upsertBlocks",
      "upsertPairs",
      "upsertReserves",
      "setCheckpoint",
    ]);
    expect(steps[1]).toEqual({ type: "insertTrades", trades });
    expect(steps[2]).toEqual({
      type: "addDayTraders",
      traders: [
        { day: DAY0, sender: TRADERS[0], trades: 2 },
        { day: DAY0, sender: TRADERS[1], trades: 1 },
      ],
    });
    expect(steps[3]).toEqual({
      type: "addDayTotals",
      days: [
        {
          day: DAY0,
          volumeUsd: trades.reduce((sum, t) => sum + t.volumeUsd, 0n),
          tradeCount: 3,
          untrackedCount: 0,
          traderCount: 2,
        },
      ],
    });
    expect(steps[4]).toEqual({ type: "mergeCandles", rows: [...buildCandleRows(trades).values()] });
    expect(steps.slice(5)).toEqual([
      { type: "upsertBlocks", blocks: batch.blocks },
      { type: "upsertPairs", pairs: batch.pairs },
      { type: "upsertReserves", reserves: batch.reserves },
      { type: "setCheckpoint", checkpoint: batch.checkpoint },
    ]);
  });

  test("behavior: trades without candle marks in an empty store delete nothing and touch no candle", () => {
    const trades = [makeTrade(0, 10n), makeTrade(1, 10n, { tracked: false, volumeUsd: 0n })];
    const steps = drivePlan(buildCommitPlan("bsc", makeBatch(trades, [10n])), (step) =>
      step.type === "addDayTraders" ? [] : undefined,
    );
    expect(types(steps)).toEqual([
      "readLastPosition",
      "insertTrades",
      "addDayTraders",
      "addDayTotals",
      "upsertBlocks",
      "upsertPairs",
      "setCheckpoint",
    ]);
    const totals = steps[3] as Extract<WriteStep, { type: "addDayTotals" }>;
    // No sender change answered: the day's trader count does not move.
    expect(totals.days).toEqual([
      {
        day: Math.floor(trades[0]!.timestamp / 86_400),
        volumeUsd: trades[0]!.volumeUsd,
        tradeCount: 2,
        untrackedCount: 1,
        traderCount: 0,
      },
    ]);
  });

  test("behavior: a re-commit of unchanged trades writes no day total and merges no candle", () => {
    const trades = [makeTrade(0, 10n), makeTrade(1, 10n)];
    const steps = drivePlan(
      buildCommitPlan("bsc", { ...makeBatch(trades, []), pairs: [] }),
      storedUntilDeleted(trades, { blockNumber: 9n, txIndex: 0, logIndex: 0 }),
    );
    // The newest stored trade is the batch's own: its transactions are deleted, and the position
    // is read again after the delete (replaced trades make candles possible), but nothing is left to merge.
    expect(types(steps)).toEqual([
      "readLastPosition",
      "deleteTradesOf",
      "readLastPosition",
      "insertTrades",
      "setCheckpoint",
    ]);
  });

  test("behavior: a batch that holds the newest stored transaction deletes it even for a trade at a later log", () => {
    // Stored: one trade of the transaction at log 4; the batch splits it with a trade at log 9.
    const storedTrade = makeTrade(0, 10n, { txIndex: 2, logIndex: 4 });
    const trade = makeTrade(0, 10n, { txIndex: 2, logIndex: 9 });
    const steps = drivePlan(
      buildCommitPlan("bsc", makeBatch([trade], [10n])),
      storedUntilDeleted([storedTrade], { blockNumber: 9n, txIndex: 0, logIndex: 0 }),
    );
    expect(types(steps).slice(0, 4)).toEqual([
      "readLastPosition",
      "deleteTradesOf",
      "readLastPosition",
      "insertTrades",
    ]);
    expect(steps[1]).toEqual({ type: "deleteTradesOf", trades: [trade] });
  });

  test("behavior: a re-commit that replaces a marked trade rebuilds the candles it touched from the stored trades", () => {
    const old = marked(0, { timestamp: D0 + 125 });
    const trade = marked(0);
    const stored = storedUntilDeleted([old], { blockNumber: 9n, txIndex: 0, logIndex: 0 });
    const steps = drivePlan(buildCommitPlan("bsc", makeBatch([trade], [10n])), (step) => {
      if (step.type === "addDayTraders") return [];
      if (step.type === "readTradesBetween") return [trade];
      if (step.type === "readFinerCandles") return [];
      return stored(step);
    });
    expect(types(steps)).toEqual([
      "readLastPosition",
      "deleteTradesOf",
      "readLastPosition",
      "insertTrades",
      // Same day, sender and volume: the old and new trade net out, no day is written.
      "readTradesBetween",
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "readFinerCandles",
      "replaceCandles",
      "upsertBlocks",
      "upsertPairs",
      "setCheckpoint",
    ]);
    // The old trade's minute (D0 + 120) and the new one's (D0 + 60): both rebuilt.
    expect(steps[4]).toEqual({ type: "readTradesBetween", from: D0 + 60, to: D0 + 180 });
    const minutes = steps[5] as Extract<WriteStep, { type: "replaceCandles" }>;
    expect(minutes.rows).toEqual([...buildCandleRows([trade], [60]).values()]);
    expect(minutes.remove.map((id) => id.start)).toEqual([D0 + 120, D0 + 120, D0 + 120]);
  });

  test("behavior: trades below the newest stored one rebuild instead of appending, even when they replace nothing", () => {
    const trade = marked(0);
    const steps = drivePlan(buildCommitPlan("bsc", makeBatch([trade], [10n])), (step) => {
      if (step.type === "deleteTradesOf") return [];
      if (step.type === "readLastPosition") return { blockNumber: 11n, txIndex: 0, logIndex: 0 };
      if (step.type === "addDayTraders") return [[DAY0, 1]];
      if (step.type === "readTradesBetween") return [trade];
      if (step.type === "readFinerCandles") return [];
      return undefined;
    });
    expect(types(steps)).not.toContain("mergeCandles");
    expect(types(steps)).toContain("readTradesBetween");
  });

  test("behavior: an empty batch only moves the checkpoint", () => {
    const checkpoint = { blockNumber: 20n, blockHash: hash(20n) };
    const steps = drivePlan(
      buildCommitPlan("bsc", { checkpoint, blocks: [], pairs: [], reserves: [], trades: [] }),
    );
    expect(steps).toEqual([{ type: "setCheckpoint", checkpoint }]);
  });

  test("behavior: V3 prices and ticks upsert after reserves; liquidity events replace those of every block the batch lists or holds an event in; checkpoint last", () => {
    const prices = [price(V3_POOL_A, 10n, -5)];
    const ticks = [tickRow(V3_POOL_A, 10n, -60, MIN_INT128, MAX_UINT128)];
    const events = [liquidityEvent(0, 12n, V3_POOL_A), liquidityEvent(1, 7n, V3_POOL_B)];
    const batch = v3Batch([10n, 11n, 12n], { v3Prices: prices, v3Ticks: ticks, liquidityEvents: events });
    const steps = drivePlan(buildCommitPlan("bsc", batch));
    expect(steps).toEqual([
      { type: "upsertBlocks", blocks: batch.blocks },
      { type: "upsertPairs", pairs: batch.pairs },
      { type: "upsertV3Prices", prices },
      { type: "upsertV3Ticks", ticks },
      { type: "replaceLiquidityEvents", blocks: [7n, 10n, 11n, 12n], events },
      { type: "setCheckpoint", checkpoint: batch.checkpoint },
    ]);
  });

  test("behavior: empty V3 lists write nothing, empty liquidity events still clear the listed blocks, and a batch without them leaves events alone", () => {
    const cleared = drivePlan(
      buildCommitPlan("bsc", v3Batch([10n, 11n], { v3Prices: [], v3Ticks: [], liquidityEvents: [] }, [])),
    );
    expect(types(cleared)).toEqual(["upsertBlocks", "replaceLiquidityEvents", "setCheckpoint"]);
    expect(cleared[1]).toEqual({ type: "replaceLiquidityEvents", blocks: [10n, 11n], events: [] });
    // No block listed and no event: nothing to replace.
    expect(types(drivePlan(buildCommitPlan("bsc", v3Batch([], { liquidityEvents: [] }, []))))).toEqual([
      "setCheckpoint",
    ]);
    expect(types(drivePlan(buildCommitPlan("bsc", v3Batch([10n], {}, []))))).toEqual([
      "upsertBlocks",
      "setCheckpoint",
    ]);
  });

  test("error: a liquidity event filed under another network throws before the first step", () => {
    const event = liquidityEvent(0, 10n, V3_POOL_A, { network: "eth" });
    const plan = buildCommitPlan("bsc", v3Batch([10n], { liquidityEvents: [event] }));
    expect(() => plan.next()).toThrow("liquidity event committed under another network");
  });

  test("error: a trade filed under another network throws before the first step", () => {
    const plan = buildCommitPlan(
      "bsc",
      makeBatch([makeTrade(0, 10n, { network: "eth", sender: addr(1) })], [10n]),
    );
    expect(() => plan.next()).toThrow("trade committed under another network");
  });
});

describe("buildCommitPlan: pool events", () => {
  const poolEvent = (logIndex: number, blockNumber: bigint, network: "bsc" | "eth" = "bsc"): PoolEvent => ({
    network,
    txHash: hash(blockNumber),
    blockNumber,
    timestamp: D0,
    txIndex: 0,
    logIndex,
    pool: POOL_A,
    type: "swap",
    maker: addr(1),
    amount0: 5n,
    amount1: -7n,
    reserves: { reserve0: 100n, reserve1: 200n },
  });

  test("behavior: they replace those of every block the batch lists or holds one in, after the V3 steps, before the checkpoint", () => {
    const events = [poolEvent(3, 12n), poolEvent(1, 7n)];
    const batch = { ...makeBatch([], [10n, 11n, 12n]), poolEvents: events };
    const steps = drivePlan(buildCommitPlan("bsc", batch));
    expect(types(steps)).toEqual(["upsertBlocks", "upsertPairs", "replacePoolEvents", "setCheckpoint"]);
    expect(steps[2]).toEqual({ type: "replacePoolEvents", blocks: [7n, 10n, 11n, 12n], events });
  });

  test("behavior: a batch without them leaves stored events alone; an empty list still clears the listed blocks", () => {
    expect(types(drivePlan(buildCommitPlan("bsc", makeBatch([], [10n]))))).not.toContain("replacePoolEvents");
    const cleared = drivePlan(buildCommitPlan("bsc", { ...makeBatch([], [10n]), poolEvents: [] }));
    expect(cleared.find((step) => step.type === "replacePoolEvents")).toEqual({
      type: "replacePoolEvents",
      blocks: [10n],
      events: [],
    });
  });

  test("error: an event of another network refuses the batch before any step", () => {
    const plan = buildCommitPlan("bsc", { ...makeBatch([], [10n]), poolEvents: [poolEvent(0, 10n, "eth")] });
    expect(() => plan.next()).toThrow("pool event committed under another network");
  });
});
