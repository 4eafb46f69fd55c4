import { BaseError } from "viem";

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
