import type { NetworkName } from "./domain/types.js";
import { collectGarbage } from "./lib/collectGarbage.js";
import type { SettledSwapHours } from "./views/answers/createSettledSwapHours.js";
import type { LiveViews } from "./views/createLiveViews.js";

/** What one settling freed, for the log line. */
export interface SettledMemory {
  network: NetworkName;
  /** "ready": the backfill's garbage, as the network turned ready; "hours": the settled hours' first rendering. */
  after: "ready" | "hours";
  heapUsedBefore: number;
  heapUsedAfter: number;
  rssAfter: number;
  ms: number;
}

/**
 * Gives back the memory of each network's bulk work, once: a full collection as the network turns
 * ready (before /ready answers 200), and another once the settled swap hours that readiness starts
 * rendering are all kept. Every figure the API serves is read from the store and the views, as
 * before: nothing is dropped, only garbage collected (see collectGarbage for why V8 would keep it).
 * Returns the function that stops watching.
 */
export function settleMemoryAfterBackfill(deps: {
  views: Pick<LiveViews, "watchIndexed" | "status">;
  swapHours?: Pick<SettledSwapHours, "idle">;
  /** Default collectGarbage; tests count the calls. */
  collect?: () => void;
  onSettled?: (settled: SettledMemory) => void;
}): () => void {
  const { views, swapHours } = deps;
  const collect = deps.collect ?? collectGarbage;
  const settled = new Set<NetworkName>();
  const settle = (network: NetworkName, after: SettledMemory["after"]) => {
    const heapUsedBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    try {
      collect();
    } catch {
      // A runtime that refuses to collect on demand keeps its garbage; readiness goes on regardless.
      return;
    }
    const ms = performance.now() - started;
    const { heapUsed, rss } = process.memoryUsage();
    deps.onSettled?.({ network, after, heapUsedBefore, heapUsedAfter: heapUsed, rssAfter: rss, ms });
  };
  return views.watchIndexed((network) => {
    if (settled.has(network) || views.status(network).ready !== true) return;
    settled.add(network);
    settle(network, "ready");
    if (swapHours === undefined) return;
    // After this turn: readiness has asked the hours' renderer to start (whichever watcher is told first).
    setImmediate(() => {
      void swapHours.idle().then(() => settle(network, "hours"));
    });
  });
}
