import type { NetworkConfig } from "../config/types.js";
import type { Checkpoint } from "../domain/types.js";
import { createSleeper } from "../lib/createSleeper.js";
import type { PoolState } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import { applyStoreChanges } from "./applyStoreChanges.js";
import { buildPoolStates } from "./buildPoolStates.js";
import type { LiveViews } from "./createLiveViews.js";
import { listTokens } from "./listTokens.js";

/** Keeps a network's live views current from the store another process writes (an API replica). */
export interface StoreFollower {
  /** Follows until stop() or until `untilMs` (unix ms) passes. */
  run(untilMs?: number): Promise<void>;
  stop(): void;
}

// How often a follower reloads every pool and token, not only the reserves that changed.
const FULL_REFRESH_MS = 30_000;

/**
 * Creates a follower: it loads pools and tokens from the store, then polls the checkpoint and
 * applies the reserves and pairs that changed (trade lists and aggregates are read from the
 * store per request); a checkpoint whose block is no longer stored with the same hash means a
 * rollback, and the views are reloaded. Status and freshness come from the writer's head record.
 * It never reads the chain: a replica's token lookups are wired beside it (createIndexing).
 */
export function createStoreFollower(deps: {
  config: NetworkConfig;
  store: Store;
  views: LiveViews;
  log: { warn(obj: object, msg?: string): void };
}): StoreFollower {
  const { config, store, views, log } = deps;
  const network = config.name;
  let seen: Checkpoint | undefined;
  let poolsLoadedAt = 0;
  let stopping = false;
  const sleeper = createSleeper();

  async function pools(): Promise<PoolState[]> {
    const [pairs, reserves, v3Prices, v3Ticks] = await Promise.all([
      store.listPairs(network),
      store.listReserves(network),
      store.listV3Prices(network),
      store.listV3Ticks(network),
    ]);
    return buildPoolStates({ pairs, reserves, v3Prices, v3Ticks });
  }

  async function reload(): Promise<void> {
    seen = await store.getCheckpoint(network);
    const tokens = [...listTokens(config), ...(await store.listTokens(network))];
    views.load(network, {
      tokens,
      pools: await pools(),
      ...(seen === undefined ? {} : { checkpoint: seen }),
    });
    poolsLoadedAt = Date.now();
  }

  async function step(): Promise<void> {
    const checkpoint = await store.getCheckpoint(network);
    if (checkpoint !== undefined && (seen === undefined || checkpoint.blockHash !== seen.blockHash)) {
      const [kept] = seen === undefined ? [] : await store.listBlocks(network, seen.blockNumber);
      const rolledBack =
        seen === undefined || kept?.number !== seen.blockNumber || kept.hash !== seen.blockHash;
      if (rolledBack) {
        await reload();
      } else {
        const index = views.getPoolIndex(network);
        let full = Date.now() - poolsLoadedAt > FULL_REFRESH_MS;
        // Between refreshes only the pools whose state changed since the last checkpoint.
        if (!full) full = !(await applyStoreChanges(store, index, network, (seen?.blockNumber ?? -1n) + 1n));
        if (full) {
          // Now and then, or when a pair is new here: every pool and token.
          views.addTokens(network, await store.listTokens(network));
          for (const pool of await pools()) index.update(pool);
          poolsLoadedAt = Date.now();
        }
        views.markIndexed(network, checkpoint);
        seen = checkpoint;
      }
    }
    // Freshness is the writer's: when it last reached the head and when it last heard from RPC.
    const head = await store.getHead(network);
    views.setStatus(network, {
      indexedBlock: seen?.blockNumber,
      headBlock: head?.headBlock ?? seen?.blockNumber,
      headCheckedAt: head?.checkedAt,
      syncedAt: head?.syncedAt,
      ready: head?.syncedAt !== undefined,
      error: undefined,
    });
  }

  return {
    async run(untilMs) {
      stopping = false;
      await reload();
      let failures = 0;
      while (!stopping && (untilMs === undefined || Date.now() < untilMs)) {
        try {
          await step();
          failures = 0;
        } catch (error) {
          failures++;
          log.warn({ network, failures, err: String(error) }, "following the store failed; retrying");
          if (failures >= 3) views.setStatus(network, { error: "store or RPC unavailable" });
        }
        await sleeper.sleep(config.pollIntervalMs);
      }
    },
    stop() {
      stopping = true;
      sleeper.wake();
    },
  };
}
