import { type Chain, createPublicClient, defineChain, type PublicClient, type Transport } from "viem";
import { createFailoverTransport } from "./createFailoverTransport.js";
import { createRpcTimings } from "./createRpcTimings.js";
import type { RpcLane } from "./createTokenBucket.js";
import { createUrlHealth } from "./createUrlHealth.js";
import { setRpcTimings } from "./getRpcTimings.js";
import { getSharedTokenBucket } from "./getSharedTokenBucket.js";
import type { RpcLogger } from "./rpcTypes.js";

/** The client every chain function takes: a viem PublicClient (ours, or any other in tests). */
export type RpcClient = PublicClient<Transport, Chain | undefined>;

/** Options of createRpcClient. */
export interface CreateRpcClientOptions {
  /** JSON-RPC URLs in order of preference; later ones are failovers. */
  urls: readonly string[];
  chainId: number;
  /** Network name for messages (default `chain <id>`). */
  name?: string;
  /** Per HTTP request, including reading the body (default 10 s). */
  timeoutMs?: number;
  /** Retries after the first attempt over all URLs (default 4). */
  retryCount?: number;
  /** Base of the exponential backoff: delay = base * 2^attempt, plus up to 25% jitter (default 250 ms). */
  retryDelayMs?: number;
  /** Upper bound of one backoff or Retry-After wait (default 30 s). */
  maxRetryDelayMs?: number;
  /** How long a URL that timed out, refused or rate-limited is skipped (doubles while it keeps failing; default 5 s). */
  cooldownMs?: number;
  /** Largest response body accepted; viem's default of 10 MB is too small for dense eth_getLogs (default 128 MiB). */
  maxResponseBytes?: number;
  /**
   * Send concurrent requests as JSON-RPC batches of up to 100 calls (default false). A URL that
   * refuses a batch for its size gets smaller ones from then on (halved, or the size it names).
   */
  batch?: boolean;
  /**
   * Ceiling of the calls per second sent to each URL (each call of a batch and each retry
   * counts); calls wait for their turn, they never fail for it. Below it, each URL's pace is
   * learned from its answers: a rate-limit answer (HTTP 429, -32005, a provider's "limit
   * exceeded" words, 503) slows it at once and Retry-After is honoured, then the pace probes
   * upwards. Clients of this process with the same URL and ceiling share one pacer. 0 or
   * absent: no ceiling (the pace is only learned).
   */
  requestsPerSecond?: number;
  /**
   * Whose calls these are (default "backfill"): each URL's pacer serves waiting head polls
   * first, then backfill, then lookups, and lets few lookups out at once (never beside a head poll).
   */
  lane?: RpcLane;
  /** Calls that may go out at once after a quiet spell (default: a quarter second's worth, at least 1). */
  burst?: number;
  /**
   * Overall deadline of one call across its attempts, backoffs and failovers (default 4 x
   * timeoutMs); time spent waiting for the rate limit does not count.
   */
  deadlineMs?: number;
  log?: RpcLogger;
}

/**
 * Creates a viem PublicClient over several JSON-RPC URLs: viem's fallback transport fails over in
 * order, a URL that times out, refuses or rate-limits is skipped for a cooldown, and whole
 * requests are retried with exponential backoff or the server's Retry-After. Errors that a
 * retry cannot fix (reverts, bad requests, eth_getLogs range errors) are thrown at once.
 * Every call has an overall deadline, and calls can be paced per URL (`requestsPerSecond`).
 * Each HTTP request's wall time and answer size are measured (getRpcTimings).
 */
export function createRpcClient(options: CreateRpcClientOptions): RpcClient {
  if (options.urls.length === 0) throw new Error("createRpcClient: at least one RPC URL is required");
  const timeout = options.timeoutMs ?? 10_000;
  const deadlineMs = options.deadlineMs ?? 4 * timeout;
  const perSecond = options.requestsPerSecond ?? 0;
  const burst = options.burst ?? Math.max(1, Math.ceil(perSecond / 4));
  if (!(deadlineMs > 0)) throw new Error(`createRpcClient: deadlineMs must be positive, got ${deadlineMs}`);
  if (!(perSecond >= 0)) throw new Error(`createRpcClient: requestsPerSecond must be >= 0, got ${perSecond}`);
  if (!(burst >= 1)) throw new Error(`createRpcClient: burst must be >= 1, got ${burst}`);
  const network = options.name ?? `chain ${options.chainId}`;
  const health = options.urls.map((url, i) => createUrlHealth(url, i, options.batch === true));
  const limits = options.urls.map((url, i) =>
    getSharedTokenBucket(url, perSecond, burst, {
      label: health[i]!.label,
      network,
      ...(options.log === undefined ? {} : { log: options.log }),
    }),
  );
  const timings = createRpcTimings(options.batch === true);
  const transport = createFailoverTransport(options.urls, health, limits, {
    network,
    lane: options.lane ?? "backfill",
    timeout,
    retryCount: options.retryCount ?? 4,
    retryDelayMs: options.retryDelayMs ?? 250,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    cooldownMs: options.cooldownMs ?? 5_000,
    deadlineMs,
    maxResponseBytes: options.maxResponseBytes ?? 128 * 1024 * 1024,
    log: options.log,
    timings,
  });

  const chain = defineChain({
    id: options.chainId,
    name: options.name ?? `chain ${options.chainId}`,
    nativeCurrency: { name: "Native", symbol: "NATIVE", decimals: 18 },
    rpcUrls: { default: { http: [...options.urls] } },
  });
  // cacheTime 0: the indexer polls the head and must not get a cached block number.
  const client = createPublicClient({ chain, transport, cacheTime: 0 });
  setRpcTimings(client, timings);
  return client;
}
