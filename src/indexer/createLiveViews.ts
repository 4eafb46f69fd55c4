import type { NetworkConfig } from "../config/types.js";
import type { DailyVolume, MarketReader, NetworkStatus } from "../domain/market.js";
import { type Address, type Checkpoint, NATIVE, type NetworkName, type Token } from "../domain/types.js";
import { BadRequestError, NetworkNotConfiguredError, NotReadyError } from "../errors.js";
import { createPoolIndex, type PoolIndex } from "../pricing/createPoolIndex.js";
import type { PoolState } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import { createTradeFeed, type TradeFeed } from "./createTradeFeed.js";
import { utcDate } from "./utcDate.js";

/** The part of the store the views read: lists and aggregates stay in the store, a page at a time. */
export type StoreReader = Pick<
  Store,
  "listTradePage" | "countTrades" | "listDayAggregates" | "listCandles" | "sumCandles" | "listBlocks"
>;

/**
 * What the API reads of one network from memory: bounded by the pools and tokens, never by the
 * number of trades (those are read from the store a page at a time).
 */
interface NetworkView {
  config: NetworkConfig;
  tokens: Map<Address, Token>;
  bySymbol: Map<string, Token>;
  native: Token;
  index: PoolIndex;
  /** What the indexer (or follower) reported; lag and degraded are derived when read. */
  status: ReportedStatus;
  poolsBlock: bigint | undefined;
}

/** A network's status as reported; `lagBlocks` and `degraded` follow from it (and the clock). */
export type ReportedStatus = Omit<NetworkStatus, "lagBlocks" | "degraded">;

/** Discovers an unknown token address (reads the chain): supplied by the network's indexer. */
export type TokenResolver = (address: Address) => Promise<Token>;

/** The write side of the live views: only the indexer calls these. */
export interface LiveViews extends MarketReader {
  /**
   * Replaces a network's pools and tokens (at start, from the store, and after a rollback) as of
   * the store's `checkpoint`.
   */
  load(network: NetworkName, state: { tokens: Token[]; pools: PoolState[]; checkpoint?: Checkpoint }): void;
  /** Records that the store now holds everything up to `checkpoint` (after a commit) and the views reflect it. */
  markIndexed(network: NetworkName, checkpoint: Checkpoint): void;
  /** What the views applied, as events for subscribers (see createTradeFeed). */
  readonly feed: TradeFeed;
  addTokens(network: NetworkName, tokens: readonly Token[]): void;
  setStatus(network: NetworkName, patch: Partial<Omit<ReportedStatus, "network">>): void;
  setTokenResolver(network: NetworkName, resolver: TokenResolver): void;
}

const DAY = 86_400;
// A page bounds one read of the store: memory per request stays flat however large the window.
const MAX_PAGE = 10_000;

/**
 * Creates the live views of every configured network: the one MarketReader the API uses. Pools,
 * tokens and status live in memory; trade pages and daily aggregates are read from the store.
 */
export function createLiveViews(
  configs: readonly NetworkConfig[],
  store: StoreReader,
  options: { onFeedError?: (network: NetworkName, error: unknown) => void } = {},
): LiveViews {
  const views = new Map<NetworkName, NetworkView>();
  const resolvers = new Map<NetworkName, TokenResolver>();
  const feed = createTradeFeed({
    source: store,
    finalityDepth: (network) => get(network).config.finalityDepth,
    isLive: (network) => get(network).status.ready,
    ...(options.onFeedError === undefined ? {} : { onError: options.onFeedError }),
  });

  for (const config of configs) {
    const native: Token = {
      address: NATIVE,
      name: config.native.name,
      symbol: config.native.symbol,
      decimals: config.native.decimals,
    };
    const view: NetworkView = {
      config,
      tokens: new Map(),
      bySymbol: new Map(),
      native,
      index: createPoolIndex(),
      status: {
        network: config.name,
        ready: false,
        indexedBlock: undefined,
        headBlock: undefined,
        headCheckedAt: undefined,
        syncedAt: undefined,
        halted: false,
        error: undefined,
      },
      poolsBlock: undefined,
    };
    views.set(config.name, view);
    addTokens(view, listTokens(config));
  }

  function get(network: NetworkName): NetworkView {
    const view = views.get(network);
    if (view === undefined) throw new NetworkNotConfiguredError(network);
    return view;
  }

  function addTokens(view: NetworkView, tokens: readonly Token[]): void {
    for (const token of tokens) {
      if (token.address === NATIVE) continue;
      view.tokens.set(token.address, token);
    }
    // Symbols resolve through the token list only: arbitrary on-chain symbols are not trusted.
    view.bySymbol.clear();
    for (const entry of view.config.tokenList.tokens) {
      const token = view.tokens.get(entry.address.toLowerCase() as Address);
      if (token !== undefined && entry.chainId === view.config.chainId) {
        view.bySymbol.set(entry.symbol.toLowerCase(), token);
      }
    }
    for (const symbol of [view.config.native.symbol, ...view.config.native.aliases]) {
      view.bySymbol.set(symbol.toLowerCase(), view.native);
    }
  }

  return {
    networks: () => [...views.keys()],
    getConfig: (network) => get(network).config,
    status(network) {
      const { status, config } = get(network);
      // Degraded is a matter of time: a hanging RPC never reports a failure, its answers just stop.
      const quietMs = Math.max(3 * config.pollIntervalMs, config.rpc.timeoutMs);
      const quietFor = status.headCheckedAt === undefined ? 0 : Date.now() - status.headCheckedAt;
      const silent = status.headCheckedAt !== undefined && quietFor > quietMs;
      const { indexedBlock, headBlock } = status;
      return {
        ...status,
        lagBlocks:
          indexedBlock === undefined || headBlock === undefined
            ? undefined
            : headBlock > indexedBlock
              ? headBlock - indexedBlock
              : 0n,
        degraded: silent || status.error !== undefined,
        // A node that accepts and never answers reports no failure until its deadline: say so now.
        error:
          status.error ??
          (silent ? `No answer for the chain head for ${Math.round(quietFor / 1000)} s.` : undefined),
      };
    },

    async listTrades(network, query) {
      get(network);
      if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE) {
        throw new BadRequestError(`A page holds 1 to ${MAX_PAGE} trades.`);
      }
      return store.listTradePage(network, query);
    },

    async countTrades(network, since) {
      get(network);
      return store.countTrades(network, since);
    },

    async listDailyVolumes(network, days, now) {
      get(network);
      const today = Math.floor(now / DAY);
      const rows = await store.listDayAggregates(network, today - days + 1, today);
      const byDay = new Map(rows.map((row) => [row.day, row]));
      const out: DailyVolume[] = [];
      for (let i = 0; i < days; i++) {
        const day = byDay.get(today - i);
        out.push({
          date: utcDate((today - i) * DAY),
          volumeUsd: day?.volumeUsd ?? 0n,
          traderCount: day?.traderCount ?? 0,
          tradeCount: day?.tradeCount ?? 0,
          untrackedCount: day?.untrackedCount ?? 0,
        });
      }
      return out;
    },

    async listCandles(network, query) {
      get(network);
      if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE) {
        throw new BadRequestError(`A page holds 1 to ${MAX_PAGE} candles.`);
      }
      return store.listCandles(network, query);
    },

    async sumCandles(network, query) {
      get(network);
      return store.sumCandles(network, query);
    },

    async settledBefore(network) {
      const view = get(network);
      const indexed = view.status.indexedBlock;
      if (indexed === undefined) return undefined;
      const oldest = indexed - BigInt(view.config.finalityDepth);
      if (oldest < 0n) return undefined;
      // Only that very block will do: a later one's timestamp could be past trades a reorg replaces.
      const [block] = await store.listBlocks(network, oldest);
      return block?.number === oldest ? block.timestamp : undefined;
    },

    getPoolIndex: (network) => get(network).index,
    poolsBlock: (network) => get(network).poolsBlock,

    getToken(network, address) {
      return get(network).tokens.get(address.toLowerCase() as Address);
    },

    listKnownTokens: (network) => [...get(network).tokens.values()],

    findTokenBySymbol(network, symbol) {
      return get(network).bySymbol.get(symbol.toLowerCase());
    },

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

    load(network, state) {
      const view = get(network);
      view.tokens.clear();
      addTokens(view, [...listTokens(view.config), ...state.tokens]);
      view.index = createPoolIndex(state.pools);
      if (state.checkpoint !== undefined) view.poolsBlock = state.checkpoint.blockNumber;
      feed.reloaded(network, state.checkpoint);
    },

    markIndexed(network, checkpoint) {
      const view = get(network);
      view.poolsBlock = checkpoint.blockNumber;
      // The status says so at once: subscribers told of this block read it right away.
      view.status = { ...view.status, indexedBlock: checkpoint.blockNumber };
      feed.advanced(network, checkpoint);
    },

    feed,
    subscribe: (network, listener) => {
      get(network);
      return feed.subscribe(network, listener);
    },
    subscriberCount: (network) => feed.listenerCount(network),
    feedPosition: (network) => feed.position(network),

    addTokens: (network, tokens) => addTokens(get(network), tokens),

    setStatus(network, patch) {
      const view = get(network);
      view.status = { ...view.status, ...patch };
    },

    setTokenResolver(network, resolver) {
      get(network);
      resolvers.set(network, resolver);
    },
  };
}

/** The tokens of a network's token list (for its own chain id) as Token values. */
export function listTokens(config: NetworkConfig): Token[] {
  return config.tokenList.tokens
    .filter((entry) => entry.chainId === config.chainId)
    .map((entry) => ({
      address: entry.address.toLowerCase() as Address,
      name: entry.name,
      symbol: entry.symbol,
      decimals: entry.decimals,
    }));
}
