import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { createPublicClient, formatLog, http, type Log, numberToHex, toEventSelector } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { pairEventsAbi } from "../../src/chain/abis.js";
import { createLogFetcher, type LogChunk, type LogFetcherOptions } from "../../src/chain/createLogFetcher.js";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import { RpcError } from "../../src/errors.js";
import { type FaultProxy, getLogsSpan, startFaultProxy } from "./faultProxy.js";
import { deployV2 } from "./v2Fixture.js";

/** Every log of [fromBlock, toBlock] through one fetcher (its range defaults to the whole span), in chain order. */
async function collectLogs(
  args: Omit<LogFetcherOptions, "maxRange"> & {
    fromBlock: bigint;
    toBlock: bigint;
    maxRange?: number;
    onChunk?: (chunk: LogChunk) => void;
  },
): Promise<Log[]> {
  const { fromBlock, toBlock, onChunk, ...options } = args;
  if (toBlock < fromBlock) return [];
  const fetcher = createLogFetcher({
    ...options,
    maxRange: options.maxRange ?? Number(toBlock - fromBlock + 1n),
  });
  const logs: Log[] = [];
  for await (const chunk of fetcher.chunks(fromBlock, toBlock)) {
    onChunk?.(chunk);
    logs.push(...chunk.logs);
  }
  return logs;
}

const CHAIN_ID = 31337;
const SWAPS = 40;
let anvil: Anvil;
let proxy: FaultProxy;
let head: bigint;
let expected: string[];

// A log's identity and content: equal keys mean the same log.
const keyOf = (log: Log) =>
  `${log.blockNumber}:${log.logIndex}:${log.transactionHash}:${log.address}:${log.data}:${log.topics.join(",")}`;

const getLogsRequests = () => proxy.seen.filter((request) => request.method === "eth_getLogs");

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, mining: "auto" });
  proxy = await startFaultProxy(anvil.rpcUrl);
  const v2 = await deployV2(anvil.rpcUrl);
  const [a, b, c] = [await v2.deployToken(), await v2.deployToken(), await v2.deployToken()];
  await v2.addLiquidity(v2.router, a, b, 10n ** 24n, 2n * 10n ** 24n);
  await v2.addLiquidity(v2.router, b, c, 10n ** 24n, 10n ** 24n);
  // One swap per block (automine), direct and 2-hop: about 60 blocks with Swap and Sync logs.
  for (let i = 0; i < SWAPS; i++) {
    const path = i % 3 === 0 ? [a, b, c] : i % 2 === 0 ? [a, b] : [b, a];
    await v2.swap(v2.router, path, 10n ** 18n * BigInt(i + 1));
  }
  head = await v2.publicClient.getBlockNumber();
  // The reference: one eth_getLogs over anvil directly, no proxy.
  const direct = createPublicClient({ transport: http(anvil.rpcUrl) });
  const raw = await direct.request({
    method: "eth_getLogs",
    params: [
      {
        fromBlock: "0x0",
        toBlock: numberToHex(head),
        topics: [pairEventsAbi.map((e) => toEventSelector(e))],
      },
    ],
  });
  expected = raw.map((log) => keyOf(formatLog(log)));
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

beforeEach(() => {
  proxy.rules.length = 0;
  proxy.seen.length = 0;
});

function client(options: { timeoutMs?: number; maxResponseBytes?: number; retryCount?: number } = {}) {
  return createRpcClient({ urls: [proxy.url], chainId: CHAIN_ID, retryDelayMs: 10, ...options });
}

// Chunks must tile [from, to]: each starts right after the previous one, none overlaps.
function expectTiled(chunks: LogChunk[], from: bigint, to: bigint) {
  expect(chunks[0]?.fromBlock).toBe(from);
  expect(chunks.at(-1)?.toBlock).toBe(to);
  for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.fromBlock).toBe(chunks[i - 1]!.toBlock + 1n);
}

describe("createLogFetcher", () => {
  test("behavior: the fixture has logs spread over many blocks", () => {
    expect(expected.length).toBeGreaterThanOrEqual(2 * SWAPS);
    expect(new Set(expected.map((key) => key.split(":")[0])).size).toBeGreaterThanOrEqual(SWAPS);
  });

  test("behavior: shrinks on 'block range too large' and returns exactly the logs of one big query", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 8,
      fault: { kind: "rpcError", code: -32005, message: "block range too large" },
    });
    const chunks: LogChunk[] = [];
    const ranges: number[] = [];
    const logs = await collectLogs({
      client: client(),
      fromBlock: 0n,
      toBlock: head,
      events: pairEventsAbi,
      onChunk: (chunk) => chunks.push(chunk),
      onRangeChange: (range) => ranges.push(range),
    });
    expect(logs.map(keyOf)).toEqual(expected);
    expectTiled(chunks, 0n, head);
    // The range halved from the whole span until the provider accepted it, and stayed there.
    let span = Number(head + 1n);
    const halvings: number[] = [];
    while (span > 8) {
      span = Math.floor(span / 2);
      halvings.push(span);
    }
    expect(ranges.slice(0, halvings.length)).toEqual(halvings);
    expect(Math.max(...chunks.map((c) => Number(c.toBlock - c.fromBlock + 1n)))).toBeLessThanOrEqual(8);
    // Refused ranges were not retried by the client: each failed once, then the range shrank.
    const refused = getLogsRequests().filter((r) => r.outcome !== "forward");
    expect(refused.length).toBeLessThanOrEqual(6);
  });

  test("behavior: grows the range back after successes", async () => {
    let failures = 2;
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 8 && failures-- > 0,
      fault: { kind: "rpcError", code: -32602, message: "Log response size exceeded." },
    });
    const ranges: number[] = [];
    const fetcher = createLogFetcher({
      client: client(),
      events: pairEventsAbi,
      maxRange: 32,
      growAfter: 2,
      onRangeChange: (range) => ranges.push(range),
    });
    const keys: string[] = [];
    for await (const chunk of fetcher.chunks(0n, head)) keys.push(...chunk.logs.map(keyOf));
    expect(keys).toEqual(expected);
    expect(ranges).toEqual([16, 8, 16, 32]);
    expect(
      getLogsRequests()
        .map((r) => getLogsSpan(r.params))
        .slice(0, 6),
    ).toEqual([32, 16, 8, 8, 16, 16]);
  });

  test("behavior: jumps to the range the provider suggests", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 5,
      fault: (r) => {
        const from = BigInt((r.params[0] as { fromBlock: string }).fromBlock);
        return {
          kind: "rpcError",
          code: -32005,
          message: `query returned more than 10000 results. Try with this block range [${numberToHex(from)}, ${numberToHex(from + 4n)}].`,
        };
      },
    });
    const fetcher = createLogFetcher({
      client: client(),
      events: pairEventsAbi,
      maxRange: 64,
      growAfter: 100,
    });
    const keys: string[] = [];
    for await (const chunk of fetcher.chunks(0n, head)) keys.push(...chunk.logs.map(keyOf));
    expect(keys).toEqual(expected);
    expect(fetcher.range).toBe(5);
    expect(getLogsRequests().filter((r) => r.outcome !== "forward")).toHaveLength(1);
  });

  test("behavior: shrinks on HTTP 413 and on bodies over the client's size limit", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 16,
      fault: { kind: "status", status: 413, body: "Request Entity Too Large" },
    });
    // About 600 bytes per log: a 6 kB limit allows a few blocks per answer.
    const small = client({ maxResponseBytes: 6_000 });
    const chunks: LogChunk[] = [];
    const logs = await collectLogs({
      client: small,
      fromBlock: 0n,
      toBlock: head,
      events: pairEventsAbi,
      onChunk: (chunk) => chunks.push(chunk),
    });
    expect(logs.map(keyOf)).toEqual(expected);
    expectTiled(chunks, 0n, head);
    expect(getLogsRequests().some((r) => r.outcome === "status")).toBe(true);
    expect(Math.max(...chunks.map((c) => c.logs.length))).toBeLessThan(12);
  });

  test("behavior: shrinks when large ranges time out", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 16,
      fault: { kind: "hang" },
    });
    const logs = await collectLogs({
      client: client({ timeoutMs: 300 }),
      fromBlock: 0n,
      toBlock: head,
      events: pairEventsAbi,
      maxRange: 64,
    });
    expect(logs.map(keyOf)).toEqual(expected);
    expect(getLogsRequests().filter((r) => r.outcome === "hang").length).toBeGreaterThanOrEqual(2);
  });

  test("behavior: a stateful fetcher keeps the learned range for the next call", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs" && getLogsSpan(r.params) > 10,
      fault: { kind: "rpcError", code: -32000, message: "exceed maximum block range: 10" },
    });
    const fetcher = createLogFetcher({
      client: client(),
      events: pairEventsAbi,
      maxRange: 1000,
      growAfter: 1000,
    });
    for await (const _ of fetcher.chunks(0n, 30n)) {
      // drain
    }
    expect(fetcher.range).toBe(10);
    proxy.seen.length = 0;
    for await (const _ of fetcher.chunks(31n, head)) {
      // drain
    }
    expect(getLogsRequests().every((r) => r.outcome === "forward")).toBe(true);
  });

  test("error: other errors propagate as RpcError after the client's retries", async () => {
    proxy.rules.push({ match: (r) => r.method === "eth_getLogs", fault: { kind: "status", status: 500 } });
    const failing = collectLogs({
      client: client({ retryCount: 2 }),
      fromBlock: 0n,
      toBlock: head,
      events: pairEventsAbi,
    });
    await expect(failing).rejects.toBeInstanceOf(RpcError);
    await expect(failing).rejects.toThrow(`eth_getLogs failed for blocks 0..${head} after retries.`);
    expect(getLogsRequests()).toHaveLength(3);
  });

  test("error: a range error for a single block is an RpcError", async () => {
    proxy.rules.push({
      match: (r) => r.method === "eth_getLogs",
      fault: { kind: "rpcError", code: -32005, message: "query returned more than 10000 results" },
    });
    const failing = collectLogs({ client: client(), fromBlock: 5n, toBlock: 8n, events: pairEventsAbi });
    await expect(failing).rejects.toThrow("eth_getLogs failed for blocks 5..5 even for a single block.");
    expect(getLogsRequests().map((r) => getLogsSpan(r.params))).toEqual([4, 2, 1]);
  });
});
