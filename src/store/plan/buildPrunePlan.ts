import { dayOf } from "../buildDayDeltas.js";
import type { PruneOptions } from "../types.js";
import type { WritePlan } from "./writeSteps.js";

/** The steps of Store.prune. */
export function* buildPrunePlan(options: PruneOptions): WritePlan {
  // The day tradesBefore falls in keeps its aggregate whole: only earlier days go.
  const firstKept = dayOf(options.tradesBefore);
  yield { type: "deleteTradesBefore", timestamp: options.tradesBefore };
  yield { type: "deleteDaysBefore", day: firstKept };
  // Candles of every width go by whole days too, so a kept day's buckets always roll up.
  yield { type: "deleteCandlesBefore", day: firstKept };
  yield { type: "deleteBlocksBelow", blockNumber: options.blocksBelow };
  // A pair's newest row is its current state however old it is: only rows with a newer one go.
  yield { type: "pruneReservesBelow", blockNumber: options.blocksBelow };
  // V3 state keeps its newest row at or below the line too, so a rollback to any block from
  // there on stays exact; liquidity events go by time like trades.
  yield { type: "pruneV3PricesBelow", blockNumber: options.blocksBelow };
  yield { type: "pruneV3TicksBelow", blockNumber: options.blocksBelow };
  yield { type: "deleteLiquidityEventsBefore", timestamp: options.tradesBefore };
  yield { type: "deletePoolEventsBefore", timestamp: options.tradesBefore };
}
