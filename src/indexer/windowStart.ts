import type { IndexerContext } from "./createIndexerContext.js";

const DAY = 86_400;

/** Unix seconds where the window starts, `windowDays` before now: the oldest UTC day the daily volumes show. */
export function windowStart(ctx: IndexerContext): number {
  return ctx.now() - ctx.config.windowDays * DAY;
}
