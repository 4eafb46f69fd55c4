import type { RpcClient } from "../chain/createRpcClient.js";
import { readTokenMetadata } from "../chain/readTokenMetadata.js";
import type { NetworkConfig } from "../config/types.js";
import type { Address, Checkpoint, Token } from "../domain/types.js";
import type { PoolState } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import type { LiveViews } from "./createLiveViews.js";
import { listTokens } from "./createLiveViews.js";
import type { IndexerLogger } from "./createNetworkIndexer.js";
import { createSleeper } from "./createSleeper.js";

/** Keeps a network's live views current from the store another process writes (an API replica). */
export interface StoreFollower {
  /** Follows until stop() or until `untilMs` (unix ms) passes. */
  run(untilMs?: number): Promise<void>;
  stop(): void;
  /** Token metadata for an unknown address, read from the chain (replicas do not write the store). */
  resolveToken(address: Address): Promise<Token>;
}

const DAY = 86_400;
// How often a follower reloads every pool and token, not only the reserves that changed.
const FULL_REFRESH_MS = 30_000;

/**
 * Creates a follower: it loads the views from the store, then polls the checkpoint and applies
 * new trades by their increasing sequence number, new reserves and pairs; a checkpoint whose
 * block is no longer stored with the same hash means a rollback, and the views are reloaded.
 */
export function createStoreFollower(deps: {
  config: NetworkConfig;
  store: Store;
  views: LiveViews;
  log: IndexerLogger;
  /** Reads the head (lag, readiness) and unknown tokens' metadata; optional. */
  client?: RpcClient;
  now?: () => number;
}): StoreFollower {
  const { config, store, views, log, client } = deps;
  const network = config.name;
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  let seen: Checkpoint | undefined;
  let lastSeq = -1n;
  let poolsLoadedAt = 0;
  let stopping = false;
  const sleeper = createSleeper();

  async function pools(): Promise<PoolState[]> {
    const reserves = new Map((await store.listReserves(network)).map((row) => [row.pair, row]));
    return (await store.listPairs(network)).map((pair) => ({
      ...pair,
      reserve0: reserves.get(pair.address)?.reserve0 ?? 0n,
      reserve1: reserves.get(pair.address)?.reserve1 ?? 0n,
    }));
  }

  async function reload(): Promise<void> {
    seen = await store.getCheckpoint(network);
    const trades = await store.listTrades(network, now() - config.windowDays * DAY);
    lastSeq = trades.reduce((max, t) => (t.seq > max ? t.seq : max), lastSeq);
    const tokens = [...listTokens(config), ...(await store.listTokens(network))];
    views.load(network, { tokens, pools: await pools(), trades });
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
        const fresh = (await store.listTradesAfter(network, lastSeq)).sort((a, b) =>
          a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex : a.blockNumber < b.blockNumber ? -1 : 1,
        );
        for (const trade of fresh) if (trade.seq > lastSeq) lastSeq = trade.seq;
        const index = views.getPoolIndex(network);
        let full = Date.now() - poolsLoadedAt > FULL_REFRESH_MS;
        if (!full) {
          // Between refreshes only the pairs whose reserves changed since the last checkpoint.
          const changed = await store.listReserves(network, (seen?.blockNumber ?? -1n) + 1n);
          full = changed.some((row) => index.get(row.pair) === undefined);
          if (!full) {
            for (const row of changed) {
              index.update({ ...index.get(row.pair)!, reserve0: row.reserve0, reserve1: row.reserve1 });
            }
          }
        }
        if (full) {
          // Now and then, or when a pair is new here: every pool and token.
          views.addTokens(network, await store.listTokens(network));
          for (const pool of await pools()) index.update(pool);
          poolsLoadedAt = Date.now();
        }
        const from = now() - config.windowDays * DAY;
        views.appendTrades(
          network,
          fresh.filter((trade) => trade.timestamp >= from),
          checkpoint.blockNumber,
        );
        views.prune(network, from);
        seen = checkpoint;
      }
    }
    const head = client === undefined ? undefined : await client.getBlockNumber({ cacheTime: 0 });
    const indexed = seen?.blockNumber;
    // Ready once the writer's checkpoint is within reach of the head (the writer may be mid-range).
    const ready =
      indexed !== undefined && (head === undefined || indexed + BigInt(config.finalityDepth) >= head);
    views.setStatus(network, { indexedBlock: indexed, headBlock: head ?? indexed, ready, error: undefined });
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
    async resolveToken(address) {
      if (client === undefined) throw new Error("no RPC client to read token metadata");
      return readTokenMetadata(client, address, { network });
    },
  };
}
