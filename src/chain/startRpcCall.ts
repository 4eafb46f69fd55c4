import { RpcDeadlineError } from "./rpcErrors.js";

/** The bookkeeping of one call across its attempts. */
export interface CallState {
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

/** Starts the deadline of one call of `method`; the caller must `end()` it when the call settles. */
export function startRpcCall(
  method: string,
  deadlineMs: number,
  callerSignal: AbortSignal | undefined,
): CallState {
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
