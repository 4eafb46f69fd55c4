import {
  type AbiEvent,
  type Address,
  formatLog,
  type Hex,
  type Log,
  numberToHex,
  toEventSelector,
} from "viem";
import { RpcError } from "../errors.js";
import { countEvent } from "../lib/countEvent.js";
import { classifyRpcError, errorText, shrunkRange } from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";
import type { RpcLogger } from "./rpcTypes.js";

/** Which logs to fetch: contract address(es) and either events (topic0 OR-list) or raw topics. */
export interface LogFilter {
  address?: Address | readonly Address[];
  events?: readonly AbiEvent[];
  /** Raw topics; when given, `events` is ignored. */
  topics?: readonly (Hex | readonly Hex[] | null)[];
}

/** Options of createLogFetcher. */
export interface LogFetcherOptions extends LogFilter {
  client: RpcClient;
  /** Largest range in blocks the fetcher grows back to. */
  maxRange: number;
  /** First range in blocks (default maxRange). */
  initialRange?: number;
  /** Successful chunks in a row before the range doubles (default 2). */
  growAfter?: number;
  /** Called whenever the range shrinks or grows; `error` is the provider error that caused a shrink. */
  onRangeChange?: (range: number, cause: { error?: unknown }) => void;
  /** Network the shrinks are counted for (swapgraph_rpc_log_range_shrinks_total; default: the client's chain name). */
  network?: string;
  log?: RpcLogger;
}

/**
 * Logs of the blocks [fromBlock, toBlock], complete: the next chunk starts at toBlock + 1.
 * @internal exported for tests, which type their fakes with it.
 */
export interface LogChunk {
  fromBlock: bigint;
  toBlock: bigint;
  logs: Log[];
}

/** A stateful eth_getLogs reader: the range it learned carries over from one call to the next. */
export interface LogFetcher {
  /** Current range in blocks. */
  readonly range: number;
  /**
   * Yields the logs of [fromBlock, toBlock] in consecutive chunks, in block order; `filter`
   * replaces the fetcher's own for this walk (the learned range is shared).
   */
  chunks(fromBlock: bigint, toBlock: bigint, filter?: LogFilter): AsyncGenerator<LogChunk, void, undefined>;
}

function topicsOf(filter: LogFilter): (Hex | Hex[] | null)[] | undefined {
  if (filter.topics !== undefined) {
    return filter.topics.map((topic) => (topic === null || typeof topic === "string" ? topic : [...topic]));
  }
  if (filter.events === undefined || filter.events.length === 0) return undefined;
  return [filter.events.map((event) => toEventSelector(event))];
}

interface FilterParams {
  address?: Address | Address[];
  topics?: (Hex | Hex[] | null)[];
}

function paramsOf(filter: LogFilter): FilterParams {
  const topics = topicsOf(filter);
  const address = filter.address;
  return {
    ...(address === undefined ? {} : { address: typeof address === "string" ? address : [...address] }),
    ...(topics === undefined ? {} : { topics }),
  };
}

/**
 * Creates an eth_getLogs reader whose block range halves on provider range errors (too many
 * blocks, results or bytes, 413, oversized bodies, timeouts) or drops to the range the provider
 * suggests, and doubles back up to maxRange after successes. Other errors, and range errors
 * at a single block, are thrown as RpcError after the client's retries.
 */
export function createLogFetcher(options: LogFetcherOptions): LogFetcher {
  const maxRange = Math.max(1, Math.floor(options.maxRange));
  const growAfter = Math.max(1, options.growAfter ?? 2);
  let range = Math.max(1, Math.min(maxRange, Math.floor(options.initialRange ?? maxRange)));
  let successes = 0;
  const network = options.network ?? options.client.chain?.name ?? "unknown";
  const own = paramsOf(options);

  const setRange = (next: number, error?: unknown) => {
    if (next === range) return;
    range = next;
    options.onRangeChange?.(range, error === undefined ? {} : { error });
  };

  async function fetchRange(fromBlock: bigint, toBlock: bigint, params: FilterParams): Promise<Log[]> {
    const raw = await options.client.request({
      method: "eth_getLogs",
      params: [{ fromBlock: numberToHex(fromBlock), toBlock: numberToHex(toBlock), ...params }],
    });
    return raw.map((log) => formatLog(log));
  }

  async function* chunks(
    fromBlock: bigint,
    toBlock: bigint,
    filter?: LogFilter,
  ): AsyncGenerator<LogChunk, void, undefined> {
    const params = filter === undefined ? own : paramsOf(filter);
    let from = fromBlock;
    while (from <= toBlock) {
      const span = BigInt(range);
      const to = from + span - 1n < toBlock ? from + span - 1n : toBlock;
      let logs: Log[];
      try {
        logs = await fetchRange(from, to, params);
      } catch (error) {
        const kind = classifyRpcError(error, "eth_getLogs");
        const asked = Number(to - from + 1n);
        if (kind !== "range" || asked <= 1) {
          const what = kind === "range" ? "even for a single block" : "after retries";
          throw new RpcError(`eth_getLogs failed for blocks ${from}..${to} ${what}.`, {
            details: errorText(error),
            cause: error,
          });
        }
        const next = shrunkRange(error, asked);
        successes = 0;
        options.log?.warn(
          { fromBlock: from, toBlock: to, range: next, error: errorText(error) },
          "eth_getLogs range too large; shrinking",
        );
        countEvent("rpc_log_range_shrinks", { network });
        setRange(next, error);
        continue;
      }
      // Only a full-size success says the current range works; a short tail proves nothing.
      if (to - from + 1n === span) successes++;
      yield { fromBlock: from, toBlock: to, logs };
      from = to + 1n;
      if (successes >= growAfter && range < maxRange) {
        successes = 0;
        setRange(Math.min(maxRange, range * 2));
      }
    }
  }

  return {
    get range() {
      return range;
    },
    chunks,
  };
}
