import type { Refusal, RpcCall } from "./emulatorRpc.js";
import type { ProviderFaults } from "./providerFaults.js";

/** The rate limit's token bucket: it refills continuously; a request takes one token per call. */
export interface RateBucket {
  /** NaN until the first request (then the bucket starts full). */
  tokens: number;
  at: number;
}

/** The refusal of a whole request by the batch cap or the rate limit, if any. */
export function refuseRequest(
  faults: ProviderFaults,
  bucket: RateBucket,
  calls: readonly RpcCall[],
  batch: boolean,
): Refusal | undefined {
  const cap = faults.batchSize;
  if (batch && cap !== undefined && calls.length > cap.calls) {
    const firstId = calls.find((call) => call.id !== undefined)?.id ?? null;
    const body =
      (cap.style ?? "geth") === "geth"
        ? [{ jsonrpc: "2.0", id: firstId, error: { code: -32600, message: "batch too large" } }]
        : {
            jsonrpc: "2.0",
            id: firstId,
            error: { code: -32005, message: `batch size exceed limit ${cap.calls}` },
          };
    return { status: 200, headers: {}, body: JSON.stringify(body), fault: "batchSize" };
  }
  const limit = faults.rateLimit;
  if (limit === undefined) return undefined;
  const rate = limit.callsPerSecond;
  const capacity = Math.max(1, limit.burst ?? rate);
  const now = performance.now();
  bucket.tokens = Number.isNaN(bucket.tokens)
    ? capacity
    : Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  // A request larger than the whole budget passes when the bucket is full (and runs it into debt):
  // otherwise it could never pass.
  const need = Math.min(calls.length, capacity);
  if (bucket.tokens >= need) {
    bucket.tokens -= calls.length;
    return undefined;
  }
  const waitSeconds = limit.retryAfterSeconds ?? Math.max(1, Math.ceil((need - bucket.tokens) / rate));
  const id = batch ? null : (calls[0]?.id ?? null);
  const error =
    (limit.style ?? "alchemy") === "alchemy"
      ? {
          code: 429,
          message:
            "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput",
        }
      : {
          code: -32005,
          message: "project ID request rate exceeded",
          data: {
            see: "https://infura.io/dashboard",
            current_rps: rate + 1,
            allowed_rps: rate,
            backoff_seconds: waitSeconds,
          },
        };
  return {
    status: 429,
    headers: { "retry-after": String(waitSeconds) },
    body: JSON.stringify({ jsonrpc: "2.0", id, error }),
    fault: "rateLimit",
  };
}
