import type { EIP1193RequestOptions } from "viem";
import { classifyRpcError, errorText, isRateLimited } from "./classifyRpcError.js";
import { retryAfterMs } from "./retryAfterMs.js";
import { UrlCoolingDownError } from "./rpcErrors.js";
import type { RequestArgs, RpcSettings } from "./rpcTypes.js";
import type { CallState } from "./startRpcCall.js";

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

/**
 * Runs `attempt` until it succeeds, fails for good (an error a retry cannot fix), runs out of
 * retries or the call is aborted; between attempts it waits an exponential backoff with jitter,
 * or as long as the server's Retry-After asks.
 */
export async function requestWithRetries(
  args: RequestArgs,
  requestOptions: EIP1193RequestOptions | undefined,
  call: CallState,
  attempt: (
    args: RequestArgs,
    requestOptions: EIP1193RequestOptions | undefined,
    call: CallState,
  ) => Promise<unknown>,
  settings: Pick<RpcSettings, "retryCount" | "retryDelayMs" | "maxRetryDelayMs" | "log">,
): Promise<unknown> {
  const { retryCount, retryDelayMs, maxRetryDelayMs, log } = settings;
  for (let n = 0; ; ) {
    try {
      return await attempt(args, requestOptions, call);
    } catch (error) {
      const retryable = classifyRpcError(error, args.method) === "transient";
      // "Slow down" is no failure of the call: the URL's pacer already slowed, and only the
      // call's deadline bounds how long it waits (a retry spent on it would fail a backfill
      // at any limit below its demand). Said once per URL by the pacer, not here.
      const paced = isRateLimited(error) || error instanceof UrlCoolingDownError;
      if (!retryable || (!paced && n >= retryCount) || call.signal.aborted) throw error;
      const backoff = paced ? retryDelayMs : retryDelayMs * 2 ** n * (1 + Math.random() * 0.25);
      const delay = Math.min(Math.max(backoff, retryAfterMs(error) ?? 0), maxRetryDelayMs);
      if (!paced) {
        n++;
        log?.warn(
          {
            method: args.method,
            attempt: n,
            delayMs: Math.round(delay),
            error: errorText(error),
          },
          "rpc request failed; retrying",
        );
      }
      // A URL's Retry-After cooldown is on Date.now(); timers run on a monotonic clock and may
      // fire a millisecond before Date.now() says the delay passed: the next attempt would
      // then find every URL still cooling (it did, once in CI). Wake by Date.now().
      const wakeAt = Date.now() + delay;
      await sleep(delay, call.signal);
      while (Date.now() < wakeAt) await sleep(wakeAt - Date.now(), call.signal);
    }
  }
}
