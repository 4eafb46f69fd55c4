import type { Trade } from "../../domain/types.js";
import { buildCandleRows } from "../buildCandles.js";
import { addTraderCounts, buildDayDeltas } from "../buildDayDeltas.js";
import { ask } from "./ask.js";
import { buildCandleRebuildPlan } from "./buildCandleRebuildPlan.js";
import type { WritePlan } from "./writeSteps.js";

/**
 * How a write keeps the candles: not at all (no trade it adds or removes carries candle data),
 * by appending (every added trade follows every stored one), or by rebuilding what it touched.
 */
export type CandleUpkeep = "none" | "append" | "rebuild";

/**
 * The steps that bring the day aggregates and the candles up to date with trades just added and
 * removed (the trades tables already changed). Contributions are netted per day and sender first,
 * so a re-committed trade that did not change costs no aggregate write at all.
 */
export function* buildTradeChangePlan(
  added: readonly Trade[],
  removed: readonly Trade[],
  candles: CandleUpkeep,
): WritePlan {
  const deltas = buildDayDeltas(added, removed);
  if (deltas.traders.length > 0) {
    // A day's distinct senders change only as senders' counts cross 0, which the engine sees.
    addTraderCounts(deltas.days, yield* ask({ type: "addDayTraders", traders: deltas.traders }));
  }
  if (deltas.days.size > 0) yield { type: "addDayTotals", days: [...deltas.days.values()] };
  if (candles === "append") {
    // Every added trade follows every stored one: a stored bucket is the earlier part of its row.
    const rows = [...buildCandleRows(added).values()];
    if (rows.length > 0) yield { type: "mergeCandles", rows };
  } else if (candles === "rebuild") {
    yield* buildCandleRebuildPlan(added, removed);
  }
}
