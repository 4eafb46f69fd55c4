import {
  createTransport,
  type EIP1193RequestFn,
  type EIP1193RequestOptions,
  http,
  type Transport,
} from "viem";
import { countEvent } from "../lib/countEvent.js";
import { errorText, isBatchTooLarge, isDroppedConnection, suggestedBatchSize } from "./classifyRpcError.js";
import type { RpcTimings } from "./createRpcTimings.js";
import { recordUrlFailure } from "./recordUrlFailure.js";
import type { RequestArgs, RpcSettings, UrlHealth } from "./rpcTypes.js";

/**
 * Calls whose answer is a whole block with its transactions or receipts (100-200 KB on BSC):
 * sent each on its own request, so that a node serves them side by side (a batch is answered
 * one call after the other) and no batch answer grows to megabytes. Billing is per call either way.
 */
function isBulky(args: RequestArgs): boolean {
  const params = args.params as unknown[] | undefined;
  return (
    ((args.method === "eth_getBlockByNumber" || args.method === "eth_getBlockByHash") &&
      params?.[1] === true) ||
    args.method === "eth_getBlockReceipts"
  );
}

// The calls of a JSON-RPC request body, by method; a block asked with its transactions is keyed
// apart (it weighs a hundred headers). Read from the text viem serialised: `"method":"x"` and a
// lone eth_getBlockByNumber's `true]` (it is sent alone: isBulky), cheaper than parsing it.
const METHOD = /"method":"([A-Za-z0-9_]+)"/g;
function methodsOf(body: unknown): string[] {
  if (typeof body !== "string") return [];
  const methods = [...body.matchAll(METHOD)].map((match) => match[1]!);
  if (methods.length === 1 && methods[0] === "eth_getBlockByNumber" && /,\s*true\s*\]/.test(body))
    return ["eth_getBlockByNumber+transactions"];
  return methods;
}

/**
 * A fetch that times each request from its start to its answer's last byte and counts the
 * answer's bytes as viem reads them (nothing is buffered twice), then records both in `timings`.
 * Failed or unread answers are not recorded.
 */
function createTimedFetch(timings: RpcTimings): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    const response = await fetch(input, init);
    if (!response.ok || response.body === null) return response;
    const methods = methodsOf(init?.body);
    let bytes = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        timings.record(methods, performance.now() - started, bytes);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/**
 * Creates the transport of one URL: viem's http transport without its own retries, sending
 * smaller batches once the URL refuses one for its size, and keeping the URL's health (`state`)
 * up to date: a success clears its failures, a failure is counted and may cool the URL down.
 */
export function createUrlTransport(
  url: string,
  state: UrlHealth,
  settings: Pick<
    RpcSettings,
    "network" | "timeout" | "maxResponseBytes" | "cooldownMs" | "maxRetryDelayMs" | "log" | "timings"
  >,
): Transport {
  const { network, timeout, log, timings } = settings;
  const transportOf = (batchSize: number) =>
    http(url, {
      timeout,
      retryCount: 0,
      maxResponseBodySize: settings.maxResponseBytes,
      batch: batchSize > 1 ? { batchSize, wait: 0 } : false,
      ...(timings === undefined ? {} : { fetchFn: createTimedFetch(timings) }),
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

    /**
     * One call; a batch refused for its size is sent again at once in smaller batches, and a call
     * whose connection closed before any answer is sent again once, on a new connection: a server
     * closing an idle keep-alive connection as the call went out on it is no fault of the URL
     * (every call swapgraph sends is a read, so sending it twice is harmless).
     */
    const send = async (args: RequestArgs, requestOptions?: EIP1193RequestOptions): Promise<unknown> => {
      let resent = false;
      for (;;) {
        const size = isBulky(args) ? 1 : state.batchSize;
        countEvent("rpc_requests", { network, method: args.method });
        try {
          return await innerOf(size).request(args, requestOptions);
        } catch (error) {
          if (!resent && isDroppedConnection(error) && requestOptions?.signal?.aborted !== true) {
            resent = true;
            countEvent("rpc_connection_resends", { network });
            continue;
          }
          if (size <= 1 || !isBatchTooLarge(error)) throw error;
          countEvent("rpc_errors", { network, method: args.method, kind: "batch" });
          // Every call of the refused batch gets the refusal: only the first one shrinks the size.
          if (state.batchSize === size) {
            const named = suggestedBatchSize(error);
            state.batchSize = named !== undefined && named < size ? named : Math.max(1, Math.floor(size / 2));
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
            recordUrlFailure(state, args.method, error, settings);
            throw error;
          }
        }) as EIP1193RequestFn,
      },
      first.value,
    );
  };
}
