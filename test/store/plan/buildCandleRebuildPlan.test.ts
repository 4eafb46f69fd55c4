import { describe, expect, test } from "vitest";
import type { Trade } from "../../../src/domain/types.js";
import { buildCandleRows, type CandleRow, keyOf } from "../../../src/store/buildCandles.js";
import { buildCandleRebuildPlan } from "../../../src/store/plan/buildCandleRebuildPlan.js";
import type { WriteStep } from "../../../src/store/plan/writeSteps.js";
import { drivePlan } from "../../support/drivePlan.js";
import { addr, D0, makeTrade } from "../../support/storeFixtures.js";

const TOKEN_A = addr(0x70);

/** A trade of token A for B through POOL_A at `timestamp`, priced `price`. */
function priced(i: number, timestamp: number, price: bigint): Trade {
  const trade = makeTrade(i, BigInt(i), { timestamp, txIndex: 0, logIndex: 0 });
  return {
    ...trade,
    marks: {
      priceInUsd: price,
      priceOutUsd: undefined,
      native: undefined,
      hops: [{ zeroForOne: true, amountIn: trade.amountIn, amountOut: trade.amountOut }],
    },
  };
}

type Replace = Extract<WriteStep, { type: "replaceCandles" }>;
type ReadFiner = Extract<WriteStep, { type: "readFinerCandles" }>;

describe("buildCandleRebuildPlan", () => {
  test("behavior: the touched minutes are rebuilt from the stored trades, then every coarser bucket above them from its finer rows", () => {
    // A spike removed from minute 2; minute 1 keeps a trade, minute 7 (another 5-minute bucket) one too.
    const kept = [priced(1, D0 + 65, 5n * 10n ** 18n), priced(3, D0 + 430, 7n * 10n ** 18n)];
    const spike = priced(2, D0 + 130, 10n ** 40n);
    // The rows as the store held them with the spike in.
    const stored = new Map<string, CandleRow>(buildCandleRows([...kept, spike]));
    const reads: ReadFiner[] = [];
    const steps = drivePlan(buildCandleRebuildPlan([], [spike]), (step) => {
      if (step.type === "readTradesBetween")
        return kept.filter((t) => t.timestamp >= step.from && t.timestamp < step.to);
      if (step.type === "readFinerCandles") {
        reads.push(step);
        return step.parents.flatMap((p) =>
          [...stored.values()].filter(
            (row) =>
              row.kind === p.kind &&
              row.subject === p.subject &&
              row.interval === p.finer &&
              row.start >= p.start &&
              row.start < p.start + p.interval,
          ),
        );
      }
      if (step.type === "replaceCandles") {
        for (const row of step.rows) stored.set(keyOf(row), row);
        for (const id of step.remove) stored.delete(keyOf(id));
      }
      return undefined;
    });
    // Only the spike's minute is read back: its trades are gone, so its rows go.
    expect(steps[0]).toEqual({ type: "readTradesBetween", from: D0 + 120, to: D0 + 180 });
    const minutes = steps[1] as Replace;
    expect(minutes.rows).toEqual([]);
    expect(minutes.remove.map((id) => [id.interval, id.start])).toEqual([
      [60, D0 + 120],
      [60, D0 + 120],
      [60, D0 + 120],
    ]);
    // Each coarser level asks for its finer interval, once per series.
    expect(reads.map((read) => read.parents.map((p) => [p.interval, p.finer, p.start]))).toEqual([
      [
        [300, 60, D0],
        [300, 60, D0],
        [300, 60, D0],
      ],
      [
        [3_600, 300, D0],
        [3_600, 300, D0],
        [3_600, 300, D0],
      ],
      [
        [86_400, 3_600, D0],
        [86_400, 3_600, D0],
        [86_400, 3_600, D0],
      ],
    ]);
    // Every bucket left equals a fold of the trades that stay: the spike is out of every high.
    expect(new Map([...stored].sort())).toEqual(new Map([...buildCandleRows(kept)].sort()));
    const tokenDay = [...stored.values()].find((row) => row.interval === 86_400 && row.subject === TOKEN_A);
    expect(tokenDay?.high).toBe(7n * 10n ** 18n);
  });

  test("behavior: trades without candle marks touch nothing", () => {
    expect(drivePlan(buildCandleRebuildPlan([makeTrade(0, 1n)], [makeTrade(1, 2n)]))).toEqual([]);
  });
});
