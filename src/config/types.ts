import type { Address, NetworkName, RpcCostModel } from "../domain/types.js";

/** One entry of a token list in the token-lists standard (https://tokenlists.org). */
interface TokenListEntry {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  tags?: string[];
}

/** A token list in the token-lists standard format. */
interface TokenList {
  name: string;
  timestamp: string;
  version: { major: number; minor: number; patch: number };
  tokens: TokenListEntry[];
}

/**
 * The design of a DEX's pools. "uniswap-v2": constant product (Uniswap V2 and its forks);
 * "uniswap-v3": concentrated liquidity; "pancakeswap-v3": the same with PancakeSwap's Swap event
 * (two more fields, the protocol fees) and pools created by a separate deployer.
 */
export const DEX_KINDS = ["uniswap-v2", "uniswap-v3", "pancakeswap-v3"] as const;
export type DexKind = (typeof DEX_KINDS)[number];

/** A DEX: its factory (and router, when known) with its swap fee. */
export interface DexConfig {
  name: string;
  kind: DexKind;
  factory: Address;
  /** PancakeSwap V3: the contract that deploys the factory's pools (their CREATE2 deployer). */
  deployer?: Address;
  /**
   * The DEX's router, for reference: native-coin sides are found by following the wrapped coin
   * (src/indexer/matchNativeSides.ts), whoever wrapped or unwrapped it.
   */
  router?: Address;
  /** V2 fee numerator over 10_000: 30 for Uniswap V2, 25 for PancakeSwap V2. V3 pools carry their own fee (0 here). */
  feeBps: number;
}

/** Everything the indexer and the API need to know about one network. */
export interface NetworkConfig {
  name: NetworkName;
  chainId: number;
  /** One or more JSON-RPC URLs; later ones are failovers. */
  rpcUrls: string[];
  native: {
    name: string;
    symbol: string;
    /** Extra symbols that mean the native coin (MATIC for POL). */
    aliases: string[];
    decimals: number;
    /** The wrapped native coin's ERC-20 (WBNB, WETH, WPOL). */
    wrapped: Address;
  };
  dexes: DexConfig[];
  tokenList: TokenList;
  /** Tokens worth exactly 1 USD. */
  stablecoins: Address[];
  /** Routing intermediates for quotes, and the pricing whitelist. */
  baseTokens: Address[];
  /** A pair prices a token only if its whitelisted side holds at least this many USD (10^18-scaled). */
  minLiquidityUsd: bigint;
  /** Start block of the backfill; default: the first block of the last `windowDays`. */
  startBlock?: bigint;
  /** How many days of history to keep and backfill. */
  windowDays: number;
  /** Blocks behind the head that can still be reorganised; deeper reorgs halt the indexer. */
  finalityDepth: number;
  /** How often to poll the head, in milliseconds. */
  pollIntervalMs: number;
  /** Largest eth_getLogs range in blocks (it shrinks on provider errors and grows back). */
  maxLogRange: number;
  /**
   * The API keeps serving indexed data through an RPC outage; once the data is older than this
   * (seconds since the indexed block last equalled the head) market queries answer 503.
   */
  maxStalenessSeconds: number;
  rpc: {
    /** Deadline of one JSON-RPC call per attempt, in ms. */
    timeoutMs: number;
    /** Client-side rate limit per RPC URL (calls per second, batched calls counted one by one); 0: none. */
    requestsPerSecond: number;
    /**
     * What a read is measured in when swapgraph chooses how to read (signers by whole block or by
     * transaction, logs by topic or by address): "auto" (default: compute units when
     * `computeUnits` is set or a URL is a known metered provider's, else time), compute units,
     * time (measured per client), bytes, or calls.
     */
    costModel: RpcCostModel | "auto";
    /** Compute units per method, overriding DEFAULT_COMPUTE_UNITS (common providers' prices). */
    computeUnits?: Readonly<Record<string, number>> | undefined;
    /**
     * Most pools the configured factories may hold for eth_getLogs to be asked by the pools'
     * addresses (when the cost model favours it) rather than by topic; 0: always by topic.
     * Default 4,000 (loadConfig).
     */
    maxLogAddresses?: number | undefined;
    /**
     * First wait before a failed call is tried again, in ms; it doubles per retry. The indexer's
     * loop backs off from it too, doubling per failed round up to 20 times it. Default 250 (loadConfig).
     */
    retryDelayMs?: number | undefined;
    /** How long a URL that failed (timeout, refusal, 5xx) is skipped, in ms; it doubles while it keeps failing. Default 5,000 (loadConfig). */
    cooldownMs?: number | undefined;
  };
}

/** The validated, frozen configuration of the whole process. */
export interface AppConfig {
  networks: NetworkConfig[];
  /** "sqlite" with a file path (":memory:" for tests) or "postgres" with a URL. */
  store: { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };
  http: {
    host: string;
    port: number;
    /** Open client connections at most; more are refused, so file descriptors stay for RPC and the store. */
    maxConnections: number;
    /** The share of maxConnections one source address may hold (not applied with trustProxy). */
    connectionShare: number;
    /** Bytes of whole lists a client may take per second, sustained (0: no list budget); past it a 429. */
    listBytesPerSecond: number;
    /** Bytes of lists a client may take at once after a pause. */
    listBurstBytes: number;
    /** A request whose answer has not begun this long after it arrived gets a JSON 503 (ms). */
    answerDeadlineMs: number;
    /** On SIGTERM, how long /ready answers 503 before the server stops accepting (load balancers notice). */
    drainDelayMs: number;
    /** Then how long requests in flight may take to finish before their connections are closed. */
    drainTimeoutMs: number;
    /** Requests per second per client on /api and /graphql (0: no limit); over it, a JSON 429. */
    rateLimitPerSecond: number;
    /** Requests a client may send at once (default: one second's worth). */
    rateLimitBurst?: number;
    /**
     * Take the client from X-Forwarded-For's first address (only behind a proxy that sets it),
     * for the rate limit and the GraphQL budget alike.
     */
    trustProxy: boolean;
    /** GraphQL query cost a client may spend per second, sustained (0: no cost budget). */
    graphqlCostPerSecond: number;
    /** GraphQL query cost a client may spend at once after a pause. */
    graphqlCostBurst: number;
    /**
     * GraphQL query cost a client may spend per second while no other client has run an
     * operation for 5 s (0: always graphqlCostPerSecond).
     */
    graphqlAloneCostPerSecond: number;
    /** GraphQL operations of one client executing at once (0: no bound). */
    graphqlConcurrency: number;
    /** GraphQL operations of one client waiting at most; more get a 429. */
    graphqlQueueLength: number;
    /** Longest a GraphQL operation waits for its client's budget; a longer wait is a 429 at once. */
    graphqlMaxWaitMs: number;
    /** /graphql runs only the published operations (schema/operations, by sha256 id). */
    persistedOperationsOnly: boolean;
    /**
     * Where the rendered bytes of settled hours of /api/swaps_24h are kept (about a window's
     * list per network; under the data directory unless http.keepSettledHours is false).
     */
    swapsCacheDir?: string;
  };
  /** "all": index (when holding a network's writer lock) and serve; "api": serve from the store only. */
  role: "all" | "api";
  logLevel: string;
}
