import type { NetworkConfig } from "../config/types.js";
import type { DailyVolume, MarketReader, NetworkStatus } from "../domain/market.js";
import { type Address, NATIVE, type NetworkName, type Token, type Trade } from "../domain/types.js";
import { NotReadyError } from "../errors.js";
import { createPoolIndex, type PoolIndex } from "../pricing/createPoolIndex.js";
import type { PoolState } from "../pricing/types.js";
import { utcDate } from "./utcDate.js";

interface DayAggregate {
  volumeUsd: bigint;
  traders: Set<Address>;
  tradeCount: number;
  untrackedCount: number;
}

/** Everything the API reads of one network, held in memory. */
interface NetworkView {
  config: NetworkConfig;
  tokens: Map<Address, Token>;
  bySymbol: Map<string, Token>;
  native: Token;
  index: PoolIndex;
  /** Ascending by (blockNumber, txIndex). */
  trades: Trade[];
  days: Map<string, DayAggregate>;
  status: NetworkStatus;
  poolsBlock: bigint | undefined;
}

/** Discovers an unknown token address (reads the chain): supplied by the network's indexer. */
export type TokenResolver = (address: Address) => Promise<Token>;

/** The write side of the live views: only the indexer calls these. */
export interface LiveViews extends MarketReader {
  /** Replaces a network's state (used at start, from the store, and after a rollback). */
  load(network: NetworkName, state: { tokens: Token[]; pools: PoolState[]; trades: Trade[] }): void;
  /** Adds the trades of a committed range (ascending, after every trade held). */
  appendTrades(network: NetworkName, trades: readonly Trade[], indexedBlock: bigint): void;
  addTokens(network: NetworkName, tokens: readonly Token[]): void;
  /** Drops trades older than `before` (unix seconds). */
  prune(network: NetworkName, before: number): void;
  setStatus(network: NetworkName, patch: Partial<Omit<NetworkStatus, "network">>): void;
  setTokenResolver(network: NetworkName, resolver: TokenResolver): void;
}

function createDay(): DayAggregate {
  return { volumeUsd: 0n, traders: new Set(), tradeCount: 0, untrackedCount: 0 };
}

function addToDays(days: Map<string, DayAggregate>, trade: Trade): void {
  const date = utcDate(trade.timestamp);
  let day = days.get(date);
  if (day === undefined) {
    day = createDay();
    days.set(date, day);
  }
  day.volumeUsd += trade.volumeUsd;
  day.traders.add(trade.sender);
  day.tradeCount++;
  if (!trade.tracked) day.untrackedCount++;
}

// First index whose trade is at or after `timestamp` (trades ascend by block, so by timestamp).
function lowerBound(trades: readonly Trade[], timestamp: number): number {
  let lo = 0;
  let hi = trades.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (trades[mid]!.timestamp < timestamp) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Creates the in-memory live views of every configured network: the one MarketReader the API uses. */
export function createLiveViews(configs: readonly NetworkConfig[]): LiveViews {
  const views = new Map<NetworkName, NetworkView>();
  const resolvers = new Map<NetworkName, TokenResolver>();

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
      trades: [],
      days: new Map(),
      status: {
        network: config.name,
        ready: false,
        indexedBlock: undefined,
        headBlock: undefined,
        lagBlocks: undefined,
        error: undefined,
      },
      poolsBlock: undefined,
    };
    views.set(config.name, view);
    addTokens(view, listTokens(config));
  }

  function get(network: NetworkName): NetworkView {
    const view = views.get(network);
    if (view === undefined) throw new NotReadyError(`Network ${network} is not configured on this server.`);
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

  function rebuildDays(view: NetworkView, fromDate: string | undefined): void {
    for (const date of [...view.days.keys()]) {
      if (fromDate === undefined || date >= fromDate) view.days.delete(date);
    }
    const start =
      fromDate === undefined ? 0 : lowerBound(view.trades, Date.parse(`${fromDate}T00:00:00Z`) / 1000);
    for (let i = start; i < view.trades.length; i++) addToDays(view.days, view.trades[i]!);
  }

  return {
    networks: () => [...views.keys()],
    getConfig: (network) => get(network).config,
    status: (network) => ({ ...get(network).status }),

    listTrades(network, { from, to }) {
      const { trades } = get(network);
      return trades.slice(lowerBound(trades, from), lowerBound(trades, to));
    },

    listDailyVolumes(network, days, now) {
      const view = get(network);
      const out: DailyVolume[] = [];
      const today = Date.parse(`${utcDate(now)}T00:00:00Z`) / 1000;
      for (let i = 0; i < days; i++) {
        const date = utcDate(today - i * 86_400);
        const day = view.days.get(date);
        out.push({
          date,
          volumeUsd: day?.volumeUsd ?? 0n,
          traderCount: day?.traders.size ?? 0,
          tradeCount: day?.tradeCount ?? 0,
          untrackedCount: day?.untrackedCount ?? 0,
        });
      }
      return out;
    },

    getPoolIndex: (network) => get(network).index,
    poolsBlock: (network) => get(network).poolsBlock,

    getToken(network, address) {
      return get(network).tokens.get(address.toLowerCase() as Address);
    },

    findTokenBySymbol(network, symbol) {
      return get(network).bySymbol.get(symbol.toLowerCase());
    },

    async resolveTokenAddress(network, address) {
      const view = get(network);
      const known = view.tokens.get(address.toLowerCase() as Address);
      if (known !== undefined) return known;
      const resolver = resolvers.get(network);
      if (resolver === undefined) throw new NotReadyError(`Network ${network} is not indexed yet.`);
      const token = await resolver(address.toLowerCase() as Address);
      addTokens(view, [token]);
      return token;
    },

    load(network, state) {
      const view = get(network);
      view.tokens.clear();
      addTokens(view, [...listTokens(view.config), ...state.tokens]);
      view.index = createPoolIndex(state.pools);
      view.trades = [...state.trades];
      rebuildDays(view, undefined);
    },

    appendTrades(network, trades, indexedBlock) {
      const view = get(network);
      for (const trade of trades) {
        view.trades.push(trade);
        addToDays(view.days, trade);
      }
      view.poolsBlock = indexedBlock;
    },

    addTokens: (network, tokens) => addTokens(get(network), tokens),

    prune(network, before) {
      const view = get(network);
      const cut = lowerBound(view.trades, before);
      if (cut === 0) return;
      view.trades.splice(0, cut);
      const firstKept = utcDate(before);
      for (const date of [...view.days.keys()]) if (date < firstKept) view.days.delete(date);
      // The day `before` falls in lost part of its trades: re-derive it from what is kept.
      rebuildDays(view, firstKept);
    },

    setStatus(network, patch) {
      const view = get(network);
      view.status = { ...view.status, ...patch };
      const { indexedBlock, headBlock } = view.status;
      view.status.lagBlocks =
        indexedBlock !== undefined && headBlock !== undefined
          ? headBlock > indexedBlock
            ? headBlock - indexedBlock
            : 0n
          : undefined;
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
