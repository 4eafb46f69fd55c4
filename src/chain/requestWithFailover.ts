import type { EIP1193RequestOptions, Transport } from "viem";
import { classifyRpcError } from "./classifyRpcError.js";
import type { TokenBucket } from "./createTokenBucket.js";
import { UrlCoolingDownError } from "./rpcErrors.js";
import type { RequestArgs, UrlHealth } from "./rpcTypes.js";
import type { CallState } from "./startRpcCall.js";

/** The URLs of one client, index for index: their health, rate limits and transports. */
export interface FailoverUrls {
  readonly health: readonly UrlHealth[];
  readonly limits: readonly (TokenBucket | undefined)[];
  readonly transports: readonly ReturnType<Transport>[];
}

/**
 * One attempt of a call over the URLs: the healthy ones first, in configured order, then the
 * cooling ones (trying beats failing when every healthy URL failed too); a URL that asked to be
 * left alone with Retry-After is skipped until then. `call` tracks the deadline and the last
 * error across attempts.
 */
export async function requestWithFailover(
  args: RequestArgs,
  requestOptions: EIP1193RequestOptions | undefined,
  call: CallState,
  urls: FailoverUrls,
): Promise<unknown> {
  const { health, limits } = urls;
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
      return await urls.transports[i]!.request(args as never, requestOptions);
    } catch (error) {
      call.lastError = error;
      // Errors a URL did not cause (reverts, bad requests, range limits) would fail anywhere.
      if (classifyRpcError(error, args.method) !== "transient") throw error;
      lastError = error;
    }
  }
  throw lastError;
}
