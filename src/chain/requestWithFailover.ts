import type { EIP1193RequestOptions, Transport } from "viem";
import { classifyRpcError, findHttpError, isRateLimited } from "./classifyRpcError.js";
import type { RpcLane, TokenBucket } from "./createTokenBucket.js";
import { retryAfterMs } from "./retryAfterMs.js";
import { UrlCoolingDownError } from "./rpcErrors.js";
import type { RequestArgs, UrlHealth } from "./rpcTypes.js";
import type { CallState } from "./startRpcCall.js";

/** The URLs of one client, index for index: their health, pacers and transports, and the client's lane. */
export interface FailoverUrls {
  readonly health: readonly UrlHealth[];
  readonly limits: readonly TokenBucket[];
  readonly transports: readonly ReturnType<Transport>[];
  readonly lane: RpcLane;
  /** Longest pause a Retry-After may put on a URL's pacer (the client's maxRetryDelayMs). */
  readonly maxPauseMs: number;
}

/**
 * True when an answer says "slow down": a rate limit in any of its forms, or a 503 that says when
 * to come back (Retry-After: overloaded). A bare 503 is a flaky node behind a balancer: retried
 * and failed over like any transient error, it does not cut the pace (one in ten of them would
 * hold a healthy provider at a crawl).
 */
function asksToSlowDown(error: unknown): boolean {
  return isRateLimited(error) || (findHttpError(error)?.status === 503 && retryAfterMs(error) !== undefined);
}

/**
 * One attempt of a call over the URLs: the healthy ones first, the one whose pacer lets it out
 * soonest first (calls spread over the URLs once one is paced; configured order otherwise), then
 * the cooling ones (trying beats failing when every healthy URL failed too); a URL that asked to
 * be left alone with Retry-After is skipped until then. Each URL's pacer learns from the answer.
 * `call` tracks the deadline and the last error across attempts.
 */
export async function requestWithFailover(
  args: RequestArgs,
  requestOptions: EIP1193RequestOptions | undefined,
  call: CallState,
  urls: FailoverUrls,
): Promise<unknown> {
  const { health, limits, lane } = urls;
  const now = Date.now();
  const order = health
    // Only a paced URL's wait orders the URLs: an unpaced one is as free as it gets, and a
    // momentary queue on it (a lane's turn) must not send calls to a backup URL.
    .map((state, i) => ({
      state,
      i,
      wait: limits[i]!.state.perSecond === undefined ? 0 : limits[i]!.waitMs(),
    }))
    .filter(({ state }) => state.retryAfterUntil <= now)
    .sort(
      (a, b) =>
        Number(a.state.downUntil > now) - Number(b.state.downUntil > now) || a.wait - b.wait || a.i - b.i,
    );
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
    const limit = limits[i]!;
    await call.withClockStopped(limit.take(call.signal, lane));
    call.attempts++;
    try {
      const result = await urls.transports[i]!.request(args as never, requestOptions);
      limit.answered();
      return result;
    } catch (error) {
      call.lastError = error;
      const kind = classifyRpcError(error, args.method);
      if (asksToSlowDown(error)) {
        const wait = retryAfterMs(error);
        limit.limited(wait === undefined ? undefined : Math.min(wait, urls.maxPauseMs));
      } else if (kind !== "transient") limit.answered();
      // Errors a URL did not cause (reverts, bad requests, range limits) would fail anywhere.
      if (kind !== "transient") throw error;
      lastError = error;
    } finally {
      limit.done(lane);
    }
  }
  throw lastError;
}
