import type { NetworkName } from "../../domain/types.js";
import { countEvent } from "../../lib/countEvent.js";
import type { LiveViews } from "../createLiveViews.js";
import { createSwapHourCache, type KeptHour, type SwapHourCache } from "./createSwapHourCache.js";
import { createSwapPageReader, STREAM_PAGE_SIZE, type SwapListReader } from "./createSwapPageReader.js";
import { createSwapRowRenderer } from "./createSwapRowRenderer.js";
import { renderPages } from "./streamSwapHours.js";
import { HOUR, hoursOf, isSettledHour } from "./swapHours.js";

/** The settled hours of /api/swaps_24h, rendered once by the read model (see createSettledSwapHours). */
export interface SettledSwapHours {
  /**
   * The kept rendering of the hour of `network` starting at `start`, when a list pinned at
   * `atBlock` may read it (every swap of the hour is at or below that block), else undefined.
   */
  find(network: NetworkName, start: number, atBlock: bigint): KeptHour | undefined;
  /** Opens a kept hour for reading (SwapHourCache.open). */
  open: SwapHourCache["open"];
  /**
   * Whether a rendering pass that began once `network` was ready is done (every hour settled by
   * then kept, unless the disk or store failed it): /ready waits for it, so a first download reads
   * the settled hours from the disk.
   */
  caughtUp(network: NetworkName): boolean;
  /** Resolves once no rendering runs and none is asked for (tests and the bench wait for it). */
  idle(): Promise<void>;
  /** Stops rendering and removes the kept files. */
  close(): void;
}

const DAY = 86_400;

/** What the settled hours are read from and told of commits by: the live views. */
type SwapHourSource = SwapListReader & Pick<LiveViews, "watchIndexed">;

/**
 * Creates the settled hours of every network's swap list, kept in a directory of their own under
 * `dir` (createSwapHourCache): whenever the views take a new indexed state (and once at creation),
 * each hour of the 24-hour window that has settled since (its end at or before
 * MarketReader.settledBefore) and is not kept yet is read in pages pinned to the indexed block,
 * rendered exactly as a download renders it and kept, off the request path: one rendering at a
 * time in the process, other work given its turn between pages. A backfill's commits settle the
 * hours it passed, so they are rendered while it waits on the node, not after it. Downloads read
 * those hours from the disk and render only the moving ends. A halted network drops its hours.
 */
export function createSettledSwapHours(options: {
  views: SwapHourSource;
  dir: string;
  /** Swaps per page read (1..1000, default 250). */
  pageSize?: number;
  logger?: { warn(obj: object, msg?: string): void };
}): SettledSwapHours {
  const { views } = options;
  const pageSize = options.pageSize ?? STREAM_PAGE_SIZE;
  const cache = createSwapHourCache(options.dir);
  const asked = new Set<NetworkName>();
  const caughtUp = new Set<NetworkName>();
  let running: Promise<void> | undefined;
  let closed = false;

  async function renderHour(network: NetworkName, start: number, atBlock: bigint, nowMs: number) {
    const writer = cache.write(network, start);
    if (writer === undefined) return;
    try {
      const readPage = createSwapPageReader(views, network, nowMs, { settled: true });
      const bounds = { from: start, to: start + HOUR, atBlock };
      let lastBlock: bigint | undefined;
      const pages = renderPages(createSwapRowRenderer(), undefined, async (after) => {
        const page = await readPage(bounds, pageSize, after);
        const last = page.edges.at(-1);
        if (last !== undefined) lastBlock = BigInt(last.node.blockNumber);
        return page;
      });
      for await (const { elements, rows } of pages) {
        // A halted network's blocks may not be final after all: nothing of it is kept.
        if (closed || views.status(network).halted) return;
        writer.append(elements, rows);
      }
      writer.commit(lastBlock);
      countEvent("swap_hours_rendered", { network, by: "background" });
    } finally {
      writer.abort();
    }
  }

  async function renderSettled(network: NetworkName): Promise<void> {
    const nowMs = Date.now();
    if (!views.networks().includes(network)) return;
    // Not only while the network serves: a backfill's final blocks are rendered as it passes them
    // (settledBefore says which), and stale data is still final. A halted network, whose blocks a
    // reorg deeper than the finality depth replaced, keeps nothing.
    const status = views.status(network);
    if (status.halted) return cache.prune(network);
    if (status.indexedBlock === undefined) return;
    const now = Math.floor(nowMs / 1000);
    const hours = hoursOf(now - DAY, now);
    cache.prune(network, hours[0]);
    // The first hour holds the window's start: a download never reads it whole. Only hours that
    // ended by now can have settled: without one to render, the store is not asked.
    const open = hours
      .slice(1)
      .filter((start) => start + HOUR <= now && cache.get(network, start) === undefined);
    if (open.length === 0) return;
    const settledBefore = await views.settledBefore(network);
    // Pinned to the block indexed once that is known, not before: commits may have come meanwhile,
    // and every block of an hour settled by then is below the block indexed now.
    const pinned = views.status(network).indexedBlock;
    if (settledBefore === undefined || pinned === undefined) return;
    for (const start of open) {
      if (closed || !isSettledHour(start, settledBefore)) return;
      await renderHour(network, start, pinned, nowMs);
    }
  }

  async function run(): Promise<void> {
    // Never within the commit that asked: after the work already queued.
    await new Promise((resolve) => setImmediate(resolve));
    while (!closed && asked.size > 0) {
      const [network] = asked;
      asked.delete(network!);
      // A pass that starts once the network is ready renders every hour settled by then.
      const ready = views.status(network!).ready;
      try {
        await renderSettled(network!);
      } catch (error) {
        // Nothing partial is kept; the next indexed state tries again.
        options.logger?.warn({ network, err: (error as Error).message }, "settled swap hours not rendered");
      }
      // Done even when it failed: downloads then read those hours from the store, and a failing
      // disk or store must not keep a served network out of /ready.
      if (ready && !closed) caughtUp.add(network!);
    }
  }

  function ask(network: NetworkName): void {
    if (closed) return;
    asked.add(network);
    running ??= run().finally(() => {
      running = undefined;
      if (asked.size > 0) ask([...asked][0]!);
    });
  }

  const unwatch = views.watchIndexed(ask);
  for (const network of views.networks()) ask(network);
  return {
    find(network, start, atBlock) {
      const kept = cache.get(network, start);
      return kept !== undefined && (kept.lastBlock === undefined || kept.lastBlock <= atBlock)
        ? kept
        : undefined;
    },
    open: (hour, chunkBytes, prefix) => cache.open(hour, chunkBytes, prefix),
    caughtUp: (network) => caughtUp.has(network),
    async idle() {
      while (running !== undefined) await running;
    },
    close() {
      closed = true;
      unwatch();
      cache.close();
    },
  };
}
