import type { Logger } from "pino";
import { NETWORKS } from "../../domain/types.js";
import type { GraphqlExecutor } from "../../graphql/createGraphqlExecutor.js";
import { countEvent } from "../../lib/countEvent.js";
import type { SwapHourCache } from "../../views/answers/createSwapHourCache.js";
import { createSwapRowRenderer } from "../../views/answers/createSwapRowRenderer.js";
import { renderHour } from "../../views/answers/streamSwapHours.js";
import { HOUR, hoursOf, isSettledHour } from "../../views/answers/swapHours.js";
import type { FreshnessData, RestOperations, SwapsData } from "./restOperations.js";

/** Renders settled hours of /api/swaps_24h onto the disk before any download asks for them. */
export interface SwapHourWarmer {
  /** One pass over the networks now (resolves when it is done; a pass already running is joined). */
  warm(): Promise<void>;
  stop(): void;
}

/**
 * Creates the background rendering of settled hours: every `intervalMs`, for each network that
 * serves, each settled hour of the window that is not kept yet is read in pages and rendered
 * exactly as a download renders it (renderHour), then kept. So the first download after a start,
 * or after an hour settles, reads those hours from the disk as every later one does, and each
 * trade's row is rendered once a process. Pages yield to other requests between them; a pass
 * runs at a time.
 */
export function createSwapHourWarmer(options: {
  executor: GraphqlExecutor;
  operations: RestOperations;
  cache: SwapHourCache;
  pageSize: number;
  intervalMs: number;
  logger?: Logger;
}): SwapHourWarmer {
  const { executor, operations, cache, pageSize } = options;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function warmNetwork(network: (typeof NETWORKS)[number]): Promise<void> {
    const session = executor.session();
    const { networkStatus } = await session.run<FreshnessData>(operations.status, { network });
    if (networkStatus?.serving !== true || networkStatus.dataAgeSeconds === null) return;
    const atBlock = networkStatus.indexedBlock;
    const indexedUntil = session.now - networkStatus.dataAgeSeconds;
    const hours = hoursOf(session.now - 86_400, session.now);
    // The first hour holds the window's start: a download never keeps it.
    for (const start of hours.slice(1)) {
      if (stopped || !isSettledHour(start, indexedUntil) || cache.get(network, start) !== undefined) continue;
      const writer = cache.write(network, start);
      if (writer === undefined) return;
      try {
        const bounds = { network, from: start, to: start + HOUR, atBlock };
        const pages = renderHour(createSwapRowRenderer(), undefined, (after) =>
          session.run<SwapsData>(operations.swaps, { ...bounds, first: pageSize, after }),
        );
        for await (const { elements, rows } of pages) writer.append(elements, rows);
        writer.commit();
        countEvent("swap_hours_rendered", { network, by: "background" });
      } finally {
        writer.abort();
      }
    }
  }

  async function pass(): Promise<void> {
    for (const network of NETWORKS) {
      try {
        await warmNetwork(network);
      } catch (error) {
        // A failed pass keeps nothing partial; the next one tries again.
        options.logger?.warn({ network, err: (error as Error).message }, "settled swap hours not rendered");
      }
    }
  }

  const warm = (): Promise<void> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = options.intervalMs > 0 ? setInterval(() => void warm(), options.intervalMs) : undefined;
  timer?.unref();
  if (timer !== undefined) setImmediate(() => void warm());
  return {
    warm,
    stop() {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
    },
  };
}
