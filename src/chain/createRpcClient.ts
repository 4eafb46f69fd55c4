import {
  BaseError,
  type Chain,
  createPublicClient,
  createTransport,
  defineChain,
  type EIP1193RequestFn,
  type EIP1193RequestOptions,
  http,
  type PublicClient,
  TimeoutError,
  type Transport,
} from "viem";
import { countEvent } from "../domain/countEvent.js";
import { type TokenBucketState, takeToken } from "../domain/takeToken.js";
import {
  classifyRpcError,
  errorText,
  findHttpError,
  isBatchTooLarge,
  isRateLimited,
  suggestedBatchSize,
} from "./classifyRpcError.js";

/** The client every chain function takes: a viem PublicClient (ours, or any other in tests). */
export type RpcClient = PublicClient<Transport, Chain | undefined>;

/** A pino-compatible logger (only warn is used). */
export interface RpcLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

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
   * Client-side rate limit per URL, in JSON-RPC calls per second (each call of a batch and each
   * retry counts); calls wait for their turn, they never fail for it. Clients of this process
   * with the same URL and limit share one budget. 0 or absent: no limit.
   */
  requestsPerSecond?: number;
  /** Calls that may go out at once after a quiet spell (default: a quarter second's worth, at least 1). */
  burst?: number;
  /**
   * Overall deadline of one call across its attempts, backoffs and failovers (default 4 x
   * timeoutMs); time spent waiting for the rate limit does not count.
   */
  deadlineMs?: number;
  log?: RpcLogger;
}

/** Thrown when every URL asked to be left alone (Retry-After): the retry waits for the soonest. */
export class UrlCoolingDownError extends BaseError {
  readonly retryAfterMs: number | undefined;
  constructor(label: string, untilMs: number, retryAfterMs: number | undefined) {
    super(`RPC URL ${label} is cooling down for ${Math.max(0, untilMs - Date.now())} ms after failures.`, {
      name: "UrlCoolingDownError",
    });
    this.retryAfterMs = retryAfterMs;
  }
}

/** Thrown when a call did not succeed within its overall deadline; the last attempt's error is its cause. */
export class RpcDeadlineError extends BaseError {
  constructor(method: string, deadlineMs: number, attempts: number, cause: unknown) {
    super(
      `RPC call ${method} did not complete within its ${deadlineMs} ms deadline (${attempts} attempt(s)).`,
      {
        name: "RpcDeadlineError",
        ...(cause instanceof Error ? { cause } : {}),
      },
    );
  }
}

interface RequestArgs {
  method: string;
  params?: unknown;
}

interface UrlHealth {
  label: string;
  /** Calls per JSON-RPC batch this URL accepts (1: unbatched). */
  batchSize: number;
  failures: number;
  downUntil: number;
  /** Set while the cooldown comes from a Retry-After header: the URL asked us to wait. */
  retryAfterUntil: number;
}

const MAX_COOLDOWN_MS = 60_000;
const BATCH_SIZE = 100;

/** Milliseconds a Retry-After header (seconds or HTTP date) asks for, if the error carries one. */
export function retryAfterMs(error: unknown): number | undefined {
  if (error instanceof UrlCoolingDownError) return error.retryAfterMs;
  const header = findHttpError(error)?.headers?.get("Retry-After");
  if (header === undefined || header === null || header.trim() === "") return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

// Only the host: URLs of hosted providers carry API keys in their paths.
function labelOf(url: string, index: number): string {
  try {
    return `#${index} ${new URL(url).host}`;
  } catch {
    return `#${index}`;
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A token bucket: `take` resolves once a call may go out, in arrival order. */
interface TokenBucket {
  take(signal?: AbortSignal): Promise<void>;
}

// Shared by every client of the process: the provider limits the process, not one client.
const buckets = new Map<string, TokenBucket>();

function bucketFor(url: string, perSecond: number, burst: number): TokenBucket {
  const key = `${perSecond}/${burst} ${url}`;
  let bucket = buckets.get(key);
  if (bucket === undefined) {
    bucket = createTokenBucket(perSecond, burst);
    buckets.set(key, bucket);
  }
  return bucket;
}

function createTokenBucket(perSecond: number, burst: number): TokenBucket {
  const limit = { perSecond, burst };
  const state: TokenBucketState = { tokens: burst, at: performance.now() };
  const waiters: { go: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  // Releases every waiter a token is there for (in one tick, so they still share a JSON-RPC
  // batch), then sleeps until the next token.
  const drain = () => {
    timer = undefined;
    while (waiters.length > 0) {
      const waitMs = takeToken(state, performance.now(), limit);
      if (waitMs !== undefined) {
        timer = setTimeout(drain, waitMs);
        return;
      }
      waiters.shift()?.go();
    }
  };

  return {
    take(signal) {
      if (waiters.length === 0 && takeToken(state, performance.now(), limit) === undefined) {
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(signal?.reason);
        };
        const waiter = {
          go: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        waiters.push(waiter);
        signal?.addEventListener("abort", onAbort, { once: true });
        if (timer === undefined) drain();
      });
    },
  };
}

/** The bookkeeping of one call across its attempts. */
interface CallState {
  /** Aborted by the caller's signal or when the deadline passes. */
  readonly signal: AbortSignal;
  /** Rejects with RpcDeadlineError when the deadline passes. */
  readonly expired: Promise<never>;
  attempts: number;
  lastError: unknown;
  /** Awaits `wait` with the deadline's clock stopped (the rate limit is our own pacing, not the server's fault). */
  withClockStopped<T>(wait: Promise<T>): Promise<T>;
  end(): void;
}

function startCall(method: string, deadlineMs: number, callerSignal: AbortSignal | undefined): CallState {
  const expiry = new AbortController();
  const signal = callerSignal === undefined ? expiry.signal : AbortSignal.any([callerSignal, expiry.signal]);
  let reject: (error: unknown) => void = () => {};
  const expired = new Promise<never>((_, no) => {
    reject = no;
  });
  let left = deadlineMs;
  let armedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const call: CallState = {
    signal,
    expired,
    attempts: 0,
    lastError: undefined,
    async withClockStopped(wait) {
      clearTimeout(timer);
      left -= performance.now() - armedAt;
      try {
        return await wait;
      } finally {
        arm();
      }
    },
    end() {
      ended = true;
      clearTimeout(timer);
    },
  };
  function arm() {
    if (ended) return;
    armedAt = performance.now();
    timer = setTimeout(
      () => {
        const error = new RpcDeadlineError(method, deadlineMs, call.attempts, call.lastError);
        expiry.abort(error);
        reject(error);
      },
      Math.max(0, left),
    );
  }
  arm();
  return call;
}

/**
 * Creates a viem PublicClient over several JSON-RPC URLs: viem's fallback transport fails over in
 * order, a URL that times out, refuses or rate-limits is skipped for a cooldown, and whole
 * requests are retried with exponential backoff or the server's Retry-After. Errors that a
 * retry cannot fix (reverts, bad requests, eth_getLogs range errors) are thrown at once.
 * Every call has an overall deadline, and calls can be paced per URL (`requestsPerSecond`).
 */
export function createRpcClient(options: CreateRpcClientOptions): RpcClient {
  if (options.urls.length === 0) throw new Error("createRpcClient: at least one RPC URL is required");
  const timeout = options.timeoutMs ?? 10_000;
  const retryCount = options.retryCount ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 250;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  const cooldownMs = options.cooldownMs ?? 5_000;
  const deadlineMs = options.deadlineMs ?? 4 * timeout;
  const perSecond = options.requestsPerSecond ?? 0;
  const burst = options.burst ?? Math.max(1, Math.ceil(perSecond / 4));
  if (!(deadlineMs > 0)) throw new Error(`createRpcClient: deadlineMs must be positive, got ${deadlineMs}`);
  if (!(perSecond >= 0)) throw new Error(`createRpcClient: requestsPerSecond must be >= 0, got ${perSecond}`);
  if (!(burst >= 1)) throw new Error(`createRpcClient: burst must be >= 1, got ${burst}`);
  const limits = options.urls.map((url) => (perSecond > 0 ? bucketFor(url, perSecond, burst) : undefined));
  const log = options.log;
  const network = options.name ?? `chain ${options.chainId}`;
  const health: UrlHealth[] = options.urls.map((url, i) => ({
    label: labelOf(url, i),
    batchSize: options.batch === true ? BATCH_SIZE : 1,
    failures: 0,
    downUntil: 0,
    retryAfterUntil: 0,
  }));

  const guarded = (url: string, i: number): Transport => {
    const state = health[i]!;
    const transportOf = (batchSize: number) =>
      http(url, {
        timeout,
        retryCount: 0,
        maxResponseBodySize: options.maxResponseBytes ?? 128 * 1024 * 1024,
        batch: batchSize > 1 ? { batchSize, wait: 0 } : false,
      });
    return (params) => {
      // One inner transport per batch size this URL was sent (the size shrinks when refused).
      const inners = new Map<number, ReturnType<Transport>>();
      const innerOf = (batchSize: number) => {
        let inner = inners.get(batchSize);
        if (inner === undefined) {
          inner = transportOf(batchSize)({ ...params, retryCount: 0, timeout });
          inners.set(batchSize, inner);
        }
        return inner;
      };
      const first = innerOf(state.batchSize);

      /** One call; a batch refused for its size is sent again at once in smaller batches. */
      const send = async (args: RequestArgs, requestOptions?: EIP1193RequestOptions): Promise<unknown> => {
        for (;;) {
          const size = state.batchSize;
          countEvent("rpc_requests", { network, method: args.method });
          try {
            return await innerOf(size).request(args, requestOptions);
          } catch (error) {
            if (size <= 1 || !isBatchTooLarge(error)) throw error;
            countEvent("rpc_errors", { network, method: args.method, kind: "batch" });
            // Every call of the refused batch gets the refusal: only the first one shrinks the size.
            if (state.batchSize === size) {
              const named = suggestedBatchSize(error);
              state.batchSize =
                named !== undefined && named < size ? named : Math.max(1, Math.floor(size / 2));
              countEvent("rpc_batch_splits", { network });
              log?.warn(
                { url: state.label, from: size, to: state.batchSize, error: errorText(error) },
                "rpc url refused a batch for its size; sending smaller batches",
              );
            }
          }
        }
      };

      return createTransport(
        {
          key: "guarded-http",
          name: `HTTP ${state.label}`,
          type: "http",
          retryCount: 0,
          timeout,
          request: (async (args: RequestArgs, requestOptions?: EIP1193RequestOptions) => {
            try {
              const result = await send(args, requestOptions);
              state.failures = 0;
              state.downUntil = 0;
              state.retryAfterUntil = 0;
              return result;
            } catch (error) {
              const timedOut =
                error instanceof BaseError && error.walk((e) => e instanceof TimeoutError) !== null;
              const kind = timedOut ? "timeout" : classifyRpcError(error, args.method);
              countEvent("rpc_errors", { network, method: args.method, kind });
              if (isRateLimited(error)) countEvent("rpc_rate_limited", { network, method: args.method });
              if (timedOut || kind === "transient") {
                state.failures++;
                const wait = retryAfterMs(error);
                const backoff = Math.min(cooldownMs * 2 ** (state.failures - 1), MAX_COOLDOWN_MS);
                state.downUntil = Date.now() + Math.max(backoff, Math.min(wait ?? 0, maxRetryDelayMs));
                state.retryAfterUntil = wait === undefined ? 0 : Date.now() + Math.min(wait, maxRetryDelayMs);
                log?.warn(
                  {
                    url: state.label,
                    method: args.method,
                    failures: state.failures,
                    error: errorText(error),
                  },
                  "rpc url failed; failing over",
                );
              }
              throw error;
            }
          }) as EIP1193RequestFn,
        },
        first.value,
      );
    };
  };

  // Failover: each attempt tries the URLs healthy first, in configured order, then the cooling
  // ones (trying beats failing when every healthy URL failed too); a URL that asked to be left
  // alone with Retry-After is skipped until then.
  const retrying: Transport = (params) => {
    const urls = options.urls.map((url, i) => guarded(url, i)({ ...params, retryCount: 0, timeout }));
    const first = urls[0]!;

    // One attempt over the URLs; `call` tracks the deadline and the last error across attempts.
    async function attempt(
      args: RequestArgs,
      requestOptions: EIP1193RequestOptions | undefined,
      call: CallState,
    ): Promise<unknown> {
      const now = Date.now();
      const order = health
        .map((state, i) => ({ state, i }))
        .filter(({ state }) => state.retryAfterUntil <= now)
        .sort((a, b) => Number(a.state.downUntil > now) - Number(b.state.downUntil > now) || a.i - b.i);
      if (order.length === 0) {
        const soonest = health.reduce(
          (min, state) => Math.min(min, state.retryAfterUntil),
          Number.POSITIVE_INFINITY,
        );
        throw new UrlCoolingDownError("(every URL)", soonest, soonest - now);
      }
      let lastError: unknown;
      for (const { i } of order) {
        call.signal.throwIfAborted();
        const limit = limits[i];
        if (limit !== undefined) await call.withClockStopped(limit.take(call.signal));
        call.attempts++;
        try {
          return await urls[i]!.request(args as never, requestOptions);
        } catch (error) {
          call.lastError = error;
          // Errors a URL did not cause (reverts, bad requests, range limits) would fail anywhere.
          if (classifyRpcError(error, args.method) !== "transient") throw error;
          lastError = error;
        }
      }
      throw lastError;
    }

    async function withRetries(
      args: RequestArgs,
      requestOptions: EIP1193RequestOptions | undefined,
      call: CallState,
    ): Promise<unknown> {
      for (let n = 0; ; n++) {
        try {
          return await attempt(args, requestOptions, call);
        } catch (error) {
          const retryable = classifyRpcError(error, args.method) === "transient";
          if (!retryable || n >= retryCount || call.signal.aborted) throw error;
          const backoff = retryDelayMs * 2 ** n * (1 + Math.random() * 0.25);
          const delay = Math.min(Math.max(backoff, retryAfterMs(error) ?? 0), maxRetryDelayMs);
          log?.warn(
            {
              method: args.method,
              attempt: n + 1,
              delayMs: Math.round(delay),
              error: errorText(error),
            },
            "rpc request failed; retrying",
          );
          // A URL's Retry-After cooldown is on Date.now(); timers run on a monotonic clock and may
          // fire a millisecond before Date.now() says the delay passed: the next attempt would
          // then find every URL still cooling (it did, once in CI). Wake by Date.now().
          const wakeAt = Date.now() + delay;
          await sleep(delay, call.signal);
          while (Date.now() < wakeAt) await sleep(wakeAt - Date.now(), call.signal);
        }
      }
    }

    return createTransport(
      {
        key: "swapgraph-rpc",
        name: "swapgraph RPC (failover + retries)",
        type: "fallback",
        retryCount: 0,
        timeout,
        request: (async (args: RequestArgs, requestOptions?: EIP1193RequestOptions) => {
          const call = startCall(args.method, deadlineMs, requestOptions?.signal);
          try {
            return await Promise.race([withRetries(args, requestOptions, call), call.expired]);
          } finally {
            call.end();
          }
        }) as EIP1193RequestFn,
      },
      first.value,
    );
  };

  const chain = defineChain({
    id: options.chainId,
    name: options.name ?? `chain ${options.chainId}`,
    nativeCurrency: { name: "Native", symbol: "NATIVE", decimals: 18 },
    rpcUrls: { default: { http: [...options.urls] } },
  });
  // cacheTime 0: the indexer polls the head and must not get a cached block number.
  return createPublicClient({ chain, transport: retrying, cacheTime: 0 });
}
