import { createRpcClient, type RpcClient } from "./chain/createRpcClient.js";
import type { RpcLane } from "./chain/createTokenBucket.js";
import { readTokenMetadata } from "./chain/readTokenMetadata.js";
import { readTotalSupply } from "./chain/readTotalSupply.js";
import type { NetworkConfig } from "./config/types.js";
import type { NetworkName } from "./domain/types.js";
import { DeepReorgError, LostWriterLockError } from "./errors.js";
import type { IndexerLogger, IndexerProgress } from "./indexer/createIndexerContext.js";
import { createNetworkIndexer, type NetworkIndexer } from "./indexer/createNetworkIndexer.js";
import { createTokenLookup, type TokenLookup } from "./indexer/createTokenLookup.js";
import { createSleeper, type Sleeper } from "./lib/createSleeper.js";
import type { Store } from "./store/types.js";
import { createLiveViews, type LiveViews } from "./views/createLiveViews.js";
import { createStoreFollower, type StoreFollower } from "./views/createStoreFollower.js";

/**
 * `all`: index a network when this process gets its writer lock, else follow the store and try
 * again (a standby takes over when the writer dies). `api`: only follow the store (a replica).
 */
export type ProcessRole = "all" | "api";

/** The data side of the process: per network an indexer or a store follower, feeding shared live views. */
export interface Indexing {
  views: LiveViews;
  /** The indexer of each network this process currently writes. */
  indexers: Map<NetworkName, NetworkIndexer>;
  /** Starts every network; a network that halts (deep reorg) keeps its error in its status. */
  start(): void;
  stop(): Promise<void>;
}

/** Wires store, RPC clients, indexers, followers and live views for the configured networks. */
export function createIndexing(deps: {
  networks: readonly NetworkConfig[];
  store: Store;
  log: IndexerLogger;
  role?: ProcessRole;
  /** How long a standby follows the store before it tries the writer lock again (default 5 s). */
  lockRetryMs?: number;
  onProgress?: (progress: IndexerProgress) => void;
  now?: () => number;
}): Indexing {
  const { store, log } = deps;
  const role = deps.role ?? "all";
  const views = createLiveViews(deps.networks, store, {
    // The feed retries from where it stopped at the next block; subscribers only wait.
    onFeedError: (network, error) =>
      log.warn({ network, err: String(error) }, "subscription feed could not read the store; retrying"),
  });
  const indexers = new Map<NetworkName, NetworkIndexer>();
  const followers = new Map<NetworkName, StoreFollower>();
  const runs: Promise<void>[] = [];
  let stopping = false;
  const sleepers = new Set<Sleeper>();

  function newIndexer(config: NetworkConfig): NetworkIndexer {
    const indexer = createNetworkIndexer({
      config,
      client: createIndexerClient(config, log),
      headClient: createIndexerClient(config, log, "head"),
      discoveryClient: createDiscoveryClient(config, log),
      store,
      views,
      log,
      ...(deps.onProgress === undefined ? {} : { onProgress: deps.onProgress }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
    indexers.set(config.name, indexer);
    return indexer;
  }

  async function runNetwork(config: NetworkConfig): Promise<void> {
    const sleeper = createSleeper();
    sleepers.add(sleeper);
    const follower = createStoreFollower({ config, store, views, log });
    // A replica reads the chain only for the token lookups callers trigger.
    const replicaTokens = createReplicaTokenLookup(config, log);
    // Listings ask token supplies at the indexed block (writer and replica alike).
    const supplyClient = createDiscoveryClient(config, log);
    views.setSupplyReader(config.name, (token, block) => readTotalSupply(supplyClient, token, block));
    followers.set(config.name, follower);
    while (!stopping) {
      let writer = false;
      try {
        writer = role === "all" && (await store.tryAcquireWriter(config.name));
      } catch (error) {
        log.warn({ network: config.name, err: String(error) }, "writer lock unavailable");
      }
      if (writer && !stopping) {
        const indexer = newIndexer(config);
        views.setTokenResolver(config.name, (address) => indexer.resolveToken(address));
        try {
          await indexer.run();
        } catch (error) {
          // A deep reorg halts the network (its status says why); a lost lock makes it a standby.
          if (error instanceof DeepReorgError) return;
          if (!(error instanceof LostWriterLockError)) {
            log.warn({ network: config.name, err: String(error) }, "indexer stopped; starting again");
            views.setStatus(config.name, { error: "store unavailable" });
            await sleeper.sleep(config.pollIntervalMs * 10);
          }
        } finally {
          indexers.delete(config.name);
        }
        continue;
      }
      if (stopping) return;
      views.setTokenResolver(config.name, (address) => replicaTokens.get(address));
      try {
        await follower.run(role === "all" ? Date.now() + (deps.lockRetryMs ?? 5_000) : undefined);
      } catch (error) {
        // The store is unreachable even to load from: say so and try again, never give up silently.
        log.warn({ network: config.name, err: String(error) }, "following the store failed; retrying");
        views.setStatus(config.name, { error: "store unavailable" });
        await sleeper.sleep(config.pollIntervalMs * 10);
      }
    }
  }

  return {
    views,
    indexers,
    start() {
      for (const config of deps.networks) runs.push(runNetwork(config).catch(() => undefined));
    },
    async stop() {
      stopping = true;
      views.feed.close();
      for (const sleeper of sleepers) sleeper.wake();
      for (const follower of followers.values()) follower.stop();
      await Promise.all([...indexers.values()].map((indexer) => indexer.stop()));
      await Promise.all(runs);
    },
  };
}

// Token lookups callers trigger get a client of their own: its URL health is not the indexer's,
// and a short timeout with one retry bounds what a lookup costs (a gas-capped call takes ms).
function createDiscoveryClient(config: NetworkConfig, log: IndexerLogger): RpcClient {
  return createRpcClient({
    urls: config.rpcUrls,
    chainId: config.chainId,
    name: config.name,
    timeoutMs: Math.min(config.rpc.timeoutMs, 3_000),
    retryCount: 1,
    deadlineMs: 6_000,
    maxResponseBytes: 4 * 1024 * 1024,
    requestsPerSecond: config.rpc.requestsPerSecond,
    lane: "lookup",
    log,
    ...retryTimings(config),
  });
}

/** The configured retry delay and URL cooldown (the client's defaults when unset). */
function retryTimings(config: NetworkConfig): { retryDelayMs?: number; cooldownMs?: number } {
  const { retryDelayMs, cooldownMs } = config.rpc;
  return {
    ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
    ...(cooldownMs === undefined ? {} : { cooldownMs }),
  };
}

/**
 * The indexer's own client: batched reads, the configured timeout. The head poll has a client of
 * its own in the "head" lane: each URL's pacer serves it before the backfill and the lookups.
 */
function createIndexerClient(
  config: NetworkConfig,
  log: IndexerLogger,
  lane: RpcLane = "backfill",
): RpcClient {
  return createRpcClient({
    lane,
    urls: config.rpcUrls,
    chainId: config.chainId,
    name: config.name,
    batch: true,
    timeoutMs: config.rpc.timeoutMs,
    requestsPerSecond: config.rpc.requestsPerSecond,
    log,
    ...retryTimings(config),
  });
}

/**
 * A replica's token lookups: metadata of an unknown address read from the chain (gas-capped,
 * cleaned, bounded) and remembered in a bounded cache; replicas never write the store.
 */
function createReplicaTokenLookup(config: NetworkConfig, log: IndexerLogger): TokenLookup {
  const client = createDiscoveryClient(config, log);
  return createTokenLookup(config.name, (address) =>
    readTokenMetadata(client, address, { network: config.name }),
  );
}
