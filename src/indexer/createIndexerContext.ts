import { createLogFetcher } from "../chain/createLogFetcher.js";
import type { RpcClient } from "../chain/createRpcClient.js";
import { getRpcTimings } from "../chain/getRpcTimings.js";
import type { SenderReadCosts } from "../chain/readsWholeBlock.js";
import { resolveCostModel } from "../chain/resolveCostModel.js";
import type { DexKind, NetworkConfig } from "../config/types.js";
import type { Address, Checkpoint, NetworkName, Pair, Token } from "../domain/types.js";
import { createSleeper, type Sleeper } from "../lib/createSleeper.js";
import { createPricingParams } from "../pricing/createPricingParams.js";
import type { PricingParams } from "../pricing/types.js";
import type { Store } from "../store/types.js";
import type { LiveViews } from "../views/createLiveViews.js";
import { createRangeLogReader, type RangeLogReader } from "./createRangeLogReader.js";
import type { TokenLookupOptions } from "./createTokenLookup.js";
import { createRangeEventSet, type RangeEventSet } from "./rangeEvents.js";
import type { BlockRead } from "./readRange.js";

/** Minimal logger the indexer writes to (pino fits). */
export interface IndexerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Progress of the backfill, reported after every committed range until the head is reached. */
export interface IndexerProgress {
  network: string;
  /** First block this run indexed. */
  fromBlock: bigint;
  indexedBlock: bigint;
  headBlock: bigint;
  /** Trades committed by this run so far. */
  trades: number;
  /** Milliseconds since this run started indexing. */
  elapsedMs: number;
  /** True on the report that reached the head. */
  done: boolean;
}

/** What createNetworkIndexer is built from. */
export interface NetworkIndexerDeps {
  config: NetworkConfig;
  client: RpcClient;
  /**
   * Reads for addresses callers name (token lookups): a client of its own, so what hostile
   * contracts or a flood of lookups cause never marks the indexing client's URLs unhealthy
   * (default: `client`).
   */
  discoveryClient?: RpcClient;
  /**
   * The head poll's client (the "head" lane of each URL's pacer: served before the backfill and
   * the lookups, so following the head never waits behind them; default: `client`).
   */
  headClient?: RpcClient;
  /** Limits of caller-named token lookups (createTokenLookup's defaults). */
  tokenLookup?: TokenLookupOptions;
  store: Store;
  views: LiveViews;
  log: IndexerLogger;
  /** Unix seconds; injectable so tests can pin "now". */
  now?: () => number;
  onProgress?: (progress: IndexerProgress) => void;
}

/**
 * One network indexer's parts and state, shared by its steps (seeding, range reads, commits,
 * reorgs, token discovery). Only the indexer's own modules hold it.
 */
export interface IndexerContext {
  readonly config: NetworkConfig;
  readonly network: NetworkName;
  readonly client: RpcClient;
  readonly discoveryClient: RpcClient;
  readonly headClient: RpcClient;
  readonly store: Store;
  readonly views: LiveViews;
  readonly log: IndexerLogger;
  /** Unix seconds. */
  readonly now: () => number;
  readonly onProgress: ((progress: IndexerProgress) => void) | undefined;
  readonly wrapped: Address;
  readonly factories: readonly { name: string; kind: DexKind; factory: Address; feeBps: number }[];
  /** The events this network's ranges read (by its DEXes' kinds). */
  readonly events: RangeEventSet;
  /** Accepted pairs (committed or about to be); the store's pairs table holds `committedPairs`. */
  readonly pairs: Map<Address, Pair>;
  readonly committedPairs: Set<Address>;
  readonly rejected: Set<Address>;
  readonly tokens: Map<Address, Token>;
  readonly logs: RangeLogReader;
  readonly senderCosts: SenderReadCosts;
  readonly pricing: PricingParams;
  readonly sleeper: Sleeper;
  /** Runs `fn` after every store write begun before it: the loop's and token discovery's never interleave. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  checkpoint: Checkpoint | undefined;
  /**
   * Grows whenever pairs are accepted outside the range reads (token discovery): a range read
   * before that may have dropped their logs, so it is read again.
   */
  pairsEpoch: number;
  stopping: boolean;
  /** Blocks per range, fitted to the chain's density (see fitSpan). */
  span: number;
  /** Whether one range has measured the density yet. */
  spanFitted: boolean;
  /**
   * The head as the last poll found it, whether it had moved on since the poll before, and the
   * share of recent polls that found a new block (a running average).
   */
  polled: { head: bigint | undefined; advanced: boolean; advanceRate: number };
  /**
   * Blocks the head polls read with their transactions, above the checkpoint: the range read
   * takes them as header and whole block without another call (see refreshHead).
   */
  readonly headBlocks: Map<bigint, BlockRead>;
}

const INITIAL_SPAN = 4;

/** Builds an indexer's context from its dependencies: nothing is read yet. */
export function createIndexerContext(deps: NetworkIndexerDeps): IndexerContext {
  const { config, client, log } = deps;
  const network = config.name;
  const wrapped = config.native.wrapped;
  const tokens = new Map<Address, Token>();
  const events = createRangeEventSet(config.dexes.map((dex) => dex.kind));
  const v3 = config.dexes.some((dex) => dex.kind !== "uniswap-v2");
  const costs = resolveCostModel(config.rpc.costModel, config.rpc.computeUnits, config.rpcUrls);
  log.info({ network, costModel: costs.model, why: costs.reason }, "rpc cost model chosen");
  // The "time" model weighs what the indexing client measured (none for a client not made by
  // createRpcClient: then it chooses as "bytes" does).
  const timings = getRpcTimings(client);
  let writes: Promise<unknown> = Promise.resolve();
  const ctx: IndexerContext = {
    config,
    network,
    client,
    discoveryClient: deps.discoveryClient ?? client,
    headClient: deps.headClient ?? client,
    store: deps.store,
    views: deps.views,
    log,
    now: deps.now ?? (() => Math.floor(Date.now() / 1000)),
    onProgress: deps.onProgress,
    wrapped,
    factories: config.dexes.map((dex) => ({
      name: dex.name,
      kind: dex.kind,
      factory: dex.factory,
      feeBps: dex.feeBps,
    })),
    events,
    pairs: new Map(),
    committedPairs: new Set(),
    rejected: new Set(),
    tokens,
    // The range the provider accepts is learned once and carries over from range to range. One
    // call per chunk brings the pools' and the wrapped coin's events: by topic (an OR-list) or
    // by the factories' pools' addresses, whichever the cost model favours on this chain.
    logs: createRangeLogReader({
      network,
      client,
      fetcher: createLogFetcher({ client, topics: [events.topics], maxRange: config.maxLogRange, log }),
      // By address needs the pools listed: V2 factories list theirs (allPairs), V3 ones do not.
      factories: config.dexes.map((dex) => dex.factory),
      events,
      wrapped,
      model: costs.model,
      ...(timings === undefined ? {} : { timings: () => timings.sample() }),
      maxRange: config.maxLogRange,
      ...(v3
        ? { maxPools: 0 }
        : config.rpc.maxLogAddresses === undefined
          ? {}
          : { maxPools: config.rpc.maxLogAddresses }),
      // A pool born in a range read by address: ranges read beside it lacked it, read them again.
      onPoolsAdded: () => {
        ctx.pairsEpoch++;
      },
      log,
    }),
    // Signers are read by whole block or by transaction, by the configured cost model; what a
    // block of this chain weighs is learned from the blocks read (BSC: 150-250 transactions).
    senderCosts: {
      model: costs.model,
      ...(config.rpc.computeUnits === undefined ? {} : { computeUnits: config.rpc.computeUnits }),
      transactionsPerBlock: 200,
    },
    pricing: createPricingParams(config, (token) => tokens.get(token)?.decimals),
    sleeper: createSleeper(),
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const result = writes.then(fn);
      writes = result.catch(() => undefined);
      return result;
    },
    checkpoint: undefined,
    pairsEpoch: 0,
    stopping: false,
    // Starts small (a BSC block has ~2,000 Swap/Sync logs by topic) and is fitted by each range.
    span: Math.min(config.maxLogRange, INITIAL_SPAN),
    spanFitted: false,
    polled: { head: undefined, advanced: true, advanceRate: 1 },
    headBlocks: new Map(),
  };
  return ctx;
}
