import { type RateLimitBucket, takeRateLimitToken } from "../lib/takeRateLimitToken.js";

/** A token bucket: `take` resolves once a call may go out, in arrival order. */
export interface TokenBucket {
  take(signal?: AbortSignal): Promise<void>;
}

/** Creates a token bucket of `perSecond` calls a second that lets `burst` go at once after a quiet spell. */
export function createTokenBucket(perSecond: number, burst: number): TokenBucket {
  const limit = { perSecond, burst };
  const state: RateLimitBucket = { tokens: burst, at: performance.now() };
  const waiters: { go: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  // Releases every waiter a token is there for (in one tick, so they still share a JSON-RPC
  // batch), then sleeps until the next token.
  const drain = () => {
    timer = undefined;
    while (waiters.length > 0) {
      const waitMs = takeRateLimitToken(state, performance.now(), limit);
      if (waitMs !== undefined) {
        timer = setTimeout(drain, waitMs);
        return;
      }
      waiters.shift()?.go();
    }
  };

  return {
    take(signal) {
      if (waiters.length === 0 && takeRateLimitToken(state, performance.now(), limit) === undefined) {
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
