import { createTransport, type EIP1193RequestFn, type EIP1193RequestOptions, type Transport } from "viem";
import type { TokenBucket } from "./createTokenBucket.js";
import { createUrlTransport } from "./createUrlTransport.js";
import { requestWithFailover } from "./requestWithFailover.js";
import { requestWithRetries } from "./requestWithRetries.js";
import type { RequestArgs, RpcSettings, UrlHealth } from "./rpcTypes.js";
import { type CallState, startRpcCall } from "./startRpcCall.js";

/**
 * Creates the client's transport over its URLs (index for index with `health` and `limits`):
 * each call gets an overall deadline and is retried over the URLs in failover order.
 */
export function createFailoverTransport(
  urls: readonly string[],
  health: readonly UrlHealth[],
  limits: readonly TokenBucket[],
  settings: RpcSettings,
): Transport {
  const { timeout, deadlineMs } = settings;
  return (params) => {
    const transports = urls.map((url, i) =>
      createUrlTransport(url, health[i]!, settings)({ ...params, retryCount: 0, timeout }),
    );
    const first = transports[0]!;
    const attempt = (args: RequestArgs, requestOptions: EIP1193RequestOptions | undefined, call: CallState) =>
      requestWithFailover(args, requestOptions, call, {
        health,
        limits,
        transports,
        lane: settings.lane,
        maxPauseMs: settings.maxRetryDelayMs,
      });

    return createTransport(
      {
        key: "swapgraph-rpc",
        name: "swapgraph RPC (failover + retries)",
        type: "fallback",
        retryCount: 0,
        timeout,
        request: (async (args: RequestArgs, requestOptions?: EIP1193RequestOptions) => {
          const call = startRpcCall(args.method, deadlineMs, requestOptions?.signal);
          try {
            return await Promise.race([
              requestWithRetries(args, requestOptions, call, attempt, settings),
              call.expired,
            ]);
          } finally {
            call.end();
          }
        }) as EIP1193RequestFn,
      },
      first.value,
    );
  };
}
