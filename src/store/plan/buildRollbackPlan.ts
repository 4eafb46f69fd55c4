import type { Checkpoint } from "../../domain/types.js";
import { ask } from "./ask.js";
import { buildTradeChangePlan } from "./buildTradeChangePlan.js";
import type { WritePlan } from "./writeSteps.js";

/**
 * The steps of Store.rollback: everything above the ancestor goes; the day aggregates lose exactly
 * the removed trades and the candles they touched are rebuilt from the trades that remain.
 */
export function* buildRollbackPlan(ancestor: Checkpoint): WritePlan {
  const { blockNumber } = ancestor;
  const removed = yield* ask({ type: "deleteTradesAbove", blockNumber });
  yield* buildTradeChangePlan([], removed, "rebuild");
  yield { type: "deleteBlocksAbove", blockNumber };
  yield { type: "deleteReservesAbove", blockNumber };
  // The newest remaining row of each pool and tick is then its state at the ancestor, exactly.
  yield { type: "deleteV3PricesAbove", blockNumber };
  yield { type: "deleteV3TicksAbove", blockNumber };
  yield { type: "deleteLiquidityEventsAbove", blockNumber };
  yield { type: "deletePoolEventsAbove", blockNumber };
  yield { type: "setCheckpoint", checkpoint: ancestor };
}
