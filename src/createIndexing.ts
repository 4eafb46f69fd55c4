import { createRpcClient } from "./chain/createRpcClient.js";
import type { NetworkConfig } from "./config/types.js";
import { createLiveViews, type LiveViews } from "./indexer/createLiveViews.js";
import {
  createNetworkIndexer,
  type IndexerLogger,
  type IndexerProgress,
  type NetworkIndexer,
} from "./indexer/createNetworkIndexer.js";
import type { Store } from "./store/types.js";

/** The data side of the process: one indexer per network feeding shared live views. */
export interface Indexing {
  views: LiveViews;
  indexers: Map<string, NetworkIndexer>;
  /** Starts every indexer; a network that halts (deep reorg) keeps its error in its status. */
  start(): void;
  stop(): Promise<void>;
}

/** Wires store, RPC clients, indexers and live views for the configured networks. */
export function createIndexing(deps: {
  networks: readonly NetworkConfig[];
  store: Store;
  log: IndexerLogger;
  onProgress?: (progress: IndexerProgress) => void;
  now?: () => number;
}): Indexing {
  const views = createLiveViews(deps.networks);
  const indexers = new Map<string, NetworkIndexer>();
  for (const config of deps.networks) {
    const client = createRpcClient({
      urls: config.rpcUrls,
      chainId: config.chainId,
      name: config.name,
      batch: true,
    });
    const indexer = createNetworkIndexer({
      config,
      client,
      store: deps.store,
      views,
      log: deps.log,
      ...(deps.onProgress === undefined ? {} : { onProgress: deps.onProgress }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
    views.setTokenResolver(config.name, (address) => indexer.resolveToken(address));
    indexers.set(config.name, indexer);
  }
  return {
    views,
    indexers,
    start() {
      for (const indexer of indexers.values()) {
        // A halted network is reported through its status; the others keep serving.
        indexer.run().catch(() => undefined);
      }
    },
    async stop() {
      await Promise.all([...indexers.values()].map((indexer) => indexer.stop()));
    },
  };
}
