import type { NetworkConfig } from "../config/types.js";
import type { Address, Checkpoint, NetworkName, Token } from "../domain/types.js";
import { NetworkNotConfiguredError, NotReadyError } from "../errors.js";
import { createPoolIndex } from "../pricing/createPoolIndex.js";
import type { PoolState } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import { buildDailyVolumes } from "./buildDailyVolumes.js";
import { createStatusKeeper, type ReportedStatus } from "./buildNetworkStatus.js";
import { createNetworkView, type NetworkView } from "./createNetworkView.js";
import { createPoolEventReads, type SupplyReader } from "./createPoolEventReads.js";
import { createTradeFeed, type TradeFeed } from "./createTradeFeed.js";
import { listTokens } from "./listTokens.js";
import { readSettledBefore } from "./readSettledBefore.js";
import type { MarketReader } from "./types.js";

/** The part of the store the views read: lists and aggregates stay in the store, a page at a time. */
export type StoreReader = Pick<
  Store,
  | "listTradePage"
  | "listLiquidityEvents"
  | "listPoolEvents"
  | "countTrades"
  | "listDayAggregates"
  | "listCandles"
  | "sumCandles"
  | "getTradeStats"
  | "getLastPrice"
  | "getPoolLastPrices"
  | "sumPoolSwaps"
  | "listBlocks"
>;

/** The store's aggregates the API reads as they are (candles, market stats), for a configured network. */
function aggregateReads(
  store: StoreReader,
  check: (network: NetworkName) => unknown,
): Pick<
  MarketReader,
  "listCandles" | "sumCandles" | "getTradeStats" | "getLastPrice" | "getPoolLastPrices" | "sumPoolSwaps"
> {
  return {
    async listCandles(network, query) {
      check(network);
      return store.listCandles(network, query);
    },
    async sumCandles(network, query) {
      check(network);
      return store.sumCandles(network, query);
    },
    async getTradeStats(network, query) {
      check(network);
      return store.getTradeStats(network, query);
    },
    async getLastPrice(network, query) {
      check(network);
      return store.getLastPrice(network, query);
    },
    async getPoolLastPrices(network, query) {
      check(network);
      return store.getPoolLastPrices(network, query);
    },
    async sumPoolSwaps(network, query) {
      check(network);
      return store.sumPoolSwaps(network, query);
    },
  };
}

/** Discovers an unknown token address (reads the chain): supplied by the network's indexer. */
type TokenResolver = (address: Address) => Promise<Token>;

/** The pool graph and the tokens of a configured network, from memory (an unknown token from the chain). */
function poolAndTokenReads(
  get: (network: NetworkName) => NetworkView,
  resolvers: ReadonlyMap<NetworkName, TokenResolver>,
): Pick<
  MarketReader,
  "getPoolIndex" | "poolsBlock" | "getToken" | "listKnownTokens" | "findTokenBySymbol" | "resolveTokenAddress"
> {
  return {
    getPoolIndex: (network) => get(network).index,
    poolsBlock: (network) => get(network).poolsBlock,
    getToken: (network, address) => get(network).tokens.get(address.toLowerCase() as Address),
    listKnownTokens: (network) => [...get(network).tokens.values()],
    findTokenBySymbol: (network, symbol) => get(network).bySymbol.get(symbol.toLowerCase()),
    async resolveTokenAddress(network, address) {
      const view = get(network);
      const known = view.tokens.get(address.toLowerCase() as Address);
      if (known !== undefined) return known;
      const resolver = resolvers.get(network);
      if (resolver === undefined) throw new NotReadyError(`Network ${network} is not indexed yet.`);
      // Not added to the view: the resolver remembers lookups in a bounded cache, and the
      // indexer adds the tokens whose pools it follows. Callers cannot grow this map.
      return resolver(address.toLowerCase() as Address);
    },
  };
}

/** The write side of the live views: only the indexer calls these. */
export interface LiveViews extends MarketReader {
  /**
   * Replaces a network's pools and tokens (at start, from the store, and after a rollback) as of
   * the store's `checkpoint`.
   */
  load(network: NetworkName, state: { tokens: Token[]; pools: PoolState[]; checkpoint?: Checkpoint }): void;
  /** Records that the store now holds everything up to `checkpoint` (after a commit) and the views reflect it. */
  markIndexed(network: NetworkName, checkpoint: Checkpoint): void;
  /**
   * Calls `listener` each time a network's views take a new indexed state (markIndexed: a commit
   * or a followed checkpoint; load: a start or a rollback) and when the network becomes ready
   * (its backfill done), after they reflect it. Returns the function that stops it.
   */
  watchIndexed(listener: (network: NetworkName) => void): () => void;
  /** What the views applied, as events for subscribers (see createTradeFeed). */
  readonly feed: TradeFeed;
  addTokens(network: NetworkName, tokens: readonly Token[]): void;
  setStatus(network: NetworkName, patch: Partial<Omit<ReportedStatus, "network">>): void;
  setTokenResolver(network: NetworkName, resolver: TokenResolver): void;
  /** Where the network's token supplies are read (readTotalSupply); without one they are unknown. */
  setSupplyReader(network: NetworkName, reader: SupplyReader): void;
}

/**
 * Creates the live views of every configured network: the one MarketReader the API uses. Pools,
 * tokens and status live in memory; trade and liquidity event pages and daily aggregates are read
 * from the store. Page bounds are the store's to check (its one check guards every read, the
 * feed's included): the views pass queries through unchanged.
 */
export function createLiveViews(
  configs: readonly NetworkConfig[],
  store: StoreReader,
  options: { onFeedError?: (network: NetworkName, error: unknown) => void } = {},
): LiveViews {
  const views = new Map<NetworkName, NetworkView>(
    configs.map((config) => [config.name, createNetworkView(config)]),
  );
  const resolvers = new Map<NetworkName, TokenResolver>();
  const watchers = new Set<(network: NetworkName) => void>();
  // Where a backfill's settledBefore was last read from (readSettledBefore).
  const settledFrom = new Map<NetworkName, bigint>();
  const statusOf = createStatusKeeper();
  const feed = createTradeFeed({
    source: store,
    finalityDepth: (network) => get(network).config.finalityDepth,
    isLive: (network) => get(network).status.ready,
    ...(options.onFeedError === undefined ? {} : { onError: options.onFeedError }),
  });

  const tell = (network: NetworkName) => {
    for (const watcher of watchers) watcher(network);
  };

  function get(network: NetworkName): NetworkView {
    const view = views.get(network);
    if (view === undefined) throw new NetworkNotConfiguredError(network);
    return view;
  }

  // The configured networks are fixed: one list for every caller (the request path asks per request).
  const networks: readonly NetworkName[] = Object.freeze([...views.keys()]);
  return {
    networks: () => networks,
    getConfig: (network) => get(network).config,
    status(network) {
      const { status, config } = get(network);
      return statusOf(network, status, config);
    },

    async listTrades(network, query) {
      get(network);
      return store.listTradePage(network, query);
    },

    async listLiquidityEvents(network, query) {
      get(network);
      return store.listLiquidityEvents(network, query);
    },

    ...createPoolEventReads(store, get),

    async countTrades(network, since) {
      get(network);
      return store.countTrades(network, since);
    },

    async listDailyVolumes(network, days, now) {
      get(network);
      const today = Math.floor(now / 86_400);
      return buildDailyVolumes(await store.listDayAggregates(network, today - days + 1, today), days, now);
    },

    ...aggregateReads(store, get),

    settledBefore: async (network) => readSettledBefore(store, get(network), settledFrom),

    ...poolAndTokenReads(get, resolvers),

    load(network, state) {
      const view = get(network);
      view.tokens.clear();
      view.addTokens([...listTokens(view.config), ...state.tokens]);
      view.index = createPoolIndex(state.pools);
      if (state.checkpoint !== undefined) view.poolsBlock = state.checkpoint.blockNumber;
      feed.reloaded(network, state.checkpoint);
      tell(network);
    },

    markIndexed(network, checkpoint) {
      const view = get(network);
      view.poolsBlock = checkpoint.blockNumber;
      // The status says so at once: subscribers told of this block read it right away.
      view.status = { ...view.status, indexedBlock: checkpoint.blockNumber };
      feed.advanced(network, checkpoint);
      tell(network);
    },

    watchIndexed(listener) {
      watchers.add(listener);
      return () => {
        watchers.delete(listener);
      };
    },

    feed,
    subscribe: (network, listener) => {
      get(network);
      return feed.subscribe(network, listener);
    },
    subscriberCount: (network) => feed.listenerCount(network),
    feedPosition: (network) => feed.position(network),

    addTokens: (network, tokens) => get(network).addTokens(tokens),

    setStatus(network, patch) {
      const view = get(network);
      const wasReady = view.status.ready;
      view.status = { ...view.status, ...patch };
      if (!wasReady && view.status.ready) tell(network);
    },

    setTokenResolver(network, resolver) {
      get(network);
      resolvers.set(network, resolver);
    },
  };
}
