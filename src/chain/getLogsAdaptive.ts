import type { Log } from "viem";
import { createLogFetcher, type LogChunk, type LogFetcherOptions } from "./createLogFetcher.js";

/** Arguments of getLogsAdaptive: a block range and the fetcher options (ranges default to the whole span). */
export interface GetLogsAdaptiveArgs extends Omit<LogFetcherOptions, "maxRange"> {
  fromBlock: bigint;
  toBlock: bigint;
  /** Largest range in blocks (default: the whole span). */
  maxRange?: number;
  /** Called with each chunk as it completes, in block order. */
  onChunk?: (chunk: LogChunk) => void;
}

/**
 * Every log of [fromBlock, toBlock] matching the filter, in chain order, read in ranges that
 * shrink on provider range errors and grow back (see createLogFetcher). Logs are formatted
 * (bigint block numbers) but not decoded.
 */
export async function getLogsAdaptive(args: GetLogsAdaptiveArgs): Promise<Log[]> {
  const { fromBlock, toBlock, onChunk, ...options } = args;
  if (toBlock < fromBlock) return [];
  const span = Number(toBlock - fromBlock + 1n);
  const fetcher = createLogFetcher({ ...options, maxRange: options.maxRange ?? span });
  const logs: Log[] = [];
  for await (const chunk of fetcher.chunks(fromBlock, toBlock)) {
    onChunk?.(chunk);
    for (const log of chunk.logs) logs.push(log);
  }
  return logs;
}
