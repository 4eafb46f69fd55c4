import { BaseError, TimeoutError } from "viem";
import { countEvent } from "../lib/countEvent.js";
import { classifyRpcError, errorText, isRateLimited } from "./classifyRpcError.js";
import { retryAfterMs } from "./retryAfterMs.js";
import type { RpcSettings, UrlHealth } from "./rpcTypes.js";

/** A failing URL's cooldown doubles up to this many times its base (60 s at the default 5 s). */
const MAX_COOLDOWN_FACTOR = 12;

/**
 * Counts a failed request to one URL and, when the URL is to blame (a timeout or a transient
 * error), puts it in a cooldown that doubles while it keeps failing, or as long as its
 * Retry-After asks. A rate-limit answer only honours its Retry-After: the URL's pacer handles it.
 */
export function recordUrlFailure(
  state: UrlHealth,
  method: string,
  error: unknown,
  settings: Pick<RpcSettings, "network" | "cooldownMs" | "maxRetryDelayMs" | "log">,
): void {
  const { network, cooldownMs, maxRetryDelayMs, log } = settings;
  const timedOut = error instanceof BaseError && error.walk((e) => e instanceof TimeoutError) !== null;
  const kind = timedOut ? "timeout" : classifyRpcError(error, method);
  countEvent("rpc_errors", { network, method, kind });
  if (isRateLimited(error)) {
    countEvent("rpc_rate_limited", { network, method });
    // A rate limit is a state of the URL, not a fault: its pacer slows down and says so once
    // (createTokenBucket). The URL stays healthy; only its Retry-After is honoured here.
    const wait = retryAfterMs(error);
    if (wait !== undefined) state.retryAfterUntil = Date.now() + Math.min(wait, maxRetryDelayMs);
    return;
  }
  if (timedOut || kind === "transient") {
    state.failures++;
    const wait = retryAfterMs(error);
    const backoff = Math.min(cooldownMs * 2 ** (state.failures - 1), cooldownMs * MAX_COOLDOWN_FACTOR);
    state.downUntil = Date.now() + Math.max(backoff, Math.min(wait ?? 0, maxRetryDelayMs));
    state.retryAfterUntil = wait === undefined ? 0 : Date.now() + Math.min(wait, maxRetryDelayMs);
    log?.warn(
      {
        url: state.label,
        method,
        failures: state.failures,
        error: errorText(error),
      },
      "rpc url failed; failing over",
    );
  }
}
