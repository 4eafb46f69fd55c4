import type { Trade } from "../../domain/types.js";
import {
  buildCandleRows,
  keyOf,
  parentsOf,
  ROLL_UPS,
  rollUpCandles,
  touchedMinutes,
} from "../buildCandles.js";
import { ask } from "./ask.js";
import type { CandleId, WritePlan } from "./writeSteps.js";

/**
 * The steps that rebuild the candles trades just added and removed touched (see buildCandles.ts):
 * the touched minute buckets from the trades stored now, then each coarser bucket above them from
 * its finer rows. Exact, and bounded by the touched buckets, never by a day's trades.
 */
export function* buildCandleRebuildPlan(added: readonly Trade[], removed: readonly Trade[]): WritePlan {
  const touched = touchedMinutes([...removed, ...added]);
  if (touched.rows.length === 0) return;
  const trades = yield* ask({ type: "readTradesBetween", from: touched.from, to: touched.to });
  const minutes = buildCandleRows(trades, [60], (key) => touched.keys.has(key));
  yield {
    type: "replaceCandles",
    rows: [...minutes.values()],
    remove: touched.rows.filter((row) => !minutes.has(keyOf(row))),
  };
  let children: readonly CandleId[] = touched.rows;
  for (const { interval, finer } of ROLL_UPS) {
    const parents = parentsOf(children, interval, finer);
    const rolled = rollUpCandles(parents, yield* ask({ type: "readFinerCandles", parents }));
    yield {
      type: "replaceCandles",
      rows: rolled.flatMap(({ row }) => (row === undefined ? [] : [row])),
      remove: rolled.flatMap(({ parent, row }) => (row === undefined ? [parent] : [])),
    };
    children = parents;
  }
}
