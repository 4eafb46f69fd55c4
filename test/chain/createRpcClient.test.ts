import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { findFreePort } from "@swapgraph/devnet/anvil/findFreePort.js";
import { type Anvil, startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { type Address, createPublicClient, http, numberToHex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import { RpcDeadlineError } from "../../src/chain/rpcErrors.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { createMemoryLogger } from "../graphql/support.js";
import { type FaultProxy, startFaultProxy } from "./faultProxy.js";

const CHAIN_ID = 31337;

/** A counter's total over its series. */
function countOf(name: Parameters<typeof readEventCounts>[0]): number {
  return readEventCounts(name).reduce((sum, series) => sum + series.value, 0);
}
let anvil: Anvil;
let first: FaultProxy;
let second: FaultProxy;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, mining: "auto" });
  first = await startFaultProxy(anvil.rpcUrl);
  second = await startFaultProxy(anvil.rpcUrl);
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await anvil?.stop();
});

beforeEach(() => {
  for (const proxy of [first, second]) {
    proxy.rules.length = 0;
    proxy.seen.length = 0;
  }
});

describe("createRpcClient", () => {
  test("behavior: fails over to the second URL when the first is down", async () => {
    const deadUrl = `http://127.0.0.1:${await findFreePort()}`;
    const client = createRpcClient({ urls: [deadUrl, second.url], chainId: CHAIN_ID, retryCount: 0 });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(second.count("eth_chainId")).toBe(1);
  });

  test("behavior: fails over on 500s and skips the failed URL for a cooldown", async () => {
    first.rules.push({ match: () => true, fault: { kind: "status", status: 500 } });
    const client = createRpcClient({ urls: [first.url, second.url], chainId: CHAIN_ID, retryCount: 0 });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(first.count("eth_blockNumber")).toBe(1);
    expect(second.count("eth_blockNumber")).toBe(2);
  });

  test("behavior: a hanging first URL times out once, then is skipped", async () => {
    first.rules.push({ match: () => true, fault: { kind: "hang" } });
    const client = createRpcClient({
      urls: [first.url, second.url],
      chainId: CHAIN_ID,
      timeoutMs: 300,
      retryCount: 0,
    });
    const start = performance.now();
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const firstCall = performance.now() - start;
    expect(firstCall).toBeGreaterThanOrEqual(250);
    const again = performance.now();
    await client.getBlockNumber();
    expect(performance.now() - again).toBeLessThan(250);
    expect(first.seen.length).toBe(1);
  });

  test("behavior: a connection closed before any answer is sent again once on the same URL, not blamed on it; closed twice, the URL failed", async () => {
    const { logger, records } = createMemoryLogger("warn");
    const resends = () => countOf("rpc_connection_resends");
    const before = resends();
    first.rules.push({ match: (r) => r.method === "eth_blockNumber", fault: { kind: "drop" }, times: 1 });
    const client = createRpcClient({
      urls: [first.url, second.url],
      chainId: CHAIN_ID,
      retryCount: 0,
      log: logger,
    });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(first.seen.map((r) => r.outcome)).toEqual(["drop", "forward"]);
    expect(second.seen).toEqual([]);
    expect(records).toEqual([]);
    expect(resends()).toBe(before + 1);

    first.rules.push({ match: (r) => r.method === "eth_blockNumber", fault: { kind: "drop" }, times: 2 });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(first.seen.map((r) => r.outcome)).toEqual(["drop", "forward", "drop", "drop"]);
    expect(second.count("eth_blockNumber")).toBe(1);
    expect(records.map((r) => r.msg)).toEqual(["rpc url failed; failing over"]);
  });

  test("behavior: retries recover a flaky endpoint", async () => {
    first.rules.push({
      match: (r) => r.method === "eth_blockNumber",
      fault: { kind: "status", status: 503 },
      times: 2,
    });
    const client = createRpcClient({ urls: [first.url], chainId: CHAIN_ID, retryCount: 3, retryDelayMs: 20 });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    expect(first.seen.map((r) => r.outcome)).toEqual(["status", "status", "forward"]);
  });

  test("behavior: waits for Retry-After on 429", async () => {
    first.rules.push({
      match: (r) => r.method === "eth_chainId",
      fault: { kind: "status", status: 429, headers: { "Retry-After": "1" } },
      times: 1,
    });
    const client = createRpcClient({ urls: [first.url], chainId: CHAIN_ID, retryCount: 2, retryDelayMs: 10 });
    const start = performance.now();
    expect(await client.getChainId()).toBe(CHAIN_ID);
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
    const [limited, retried] = first.seen;
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(950);
  });

  test("args: maxRetryDelayMs caps a long Retry-After", async () => {
    first.rules.push({
      match: (r) => r.method === "eth_chainId",
      fault: { kind: "status", status: 429, headers: { "Retry-After": "3600" } },
      times: 1,
    });
    const client = createRpcClient({
      urls: [first.url],
      chainId: CHAIN_ID,
      retryCount: 1,
      maxRetryDelayMs: 200,
    });
    const start = performance.now();
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
    expect(performance.now() - start).toBeLessThan(2000);
  });

  test("behavior: a 429 on the first URL fails over without waiting", async () => {
    first.rules.push({
      match: () => true,
      fault: { kind: "status", status: 429, headers: { "Retry-After": "30" } },
    });
    const client = createRpcClient({ urls: [first.url, second.url], chainId: CHAIN_ID, retryCount: 1 });
    const start = performance.now();
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(performance.now() - start).toBeLessThan(1000);
  });

  test("error: gives up after retryCount retries with exponential backoff", async () => {
    first.rules.push({ match: () => true, fault: { kind: "status", status: 500 } });
    const client = createRpcClient({ urls: [first.url], chainId: CHAIN_ID, retryCount: 3, retryDelayMs: 40 });
    await expect(client.getBlockNumber()).rejects.toThrow(/HTTP request failed/);
    expect(first.seen).toHaveLength(4);
    const gaps = first.seen.slice(1).map((r, i) => r.at - first.seen[i]!.at);
    // 40, 80, 160 ms (+ up to 25% jitter each).
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);
  });

  test("error: a JSON-RPC error that a retry cannot fix is not retried", async () => {
    first.rules.push({
      match: (r) => r.method === "eth_blockNumber",
      fault: { kind: "rpcError", code: -32601, message: "the method eth_blockNumber does not exist" },
    });
    const client = createRpcClient({ urls: [first.url], chainId: CHAIN_ID, retryCount: 3, retryDelayMs: 10 });
    await expect(client.getBlockNumber()).rejects.toThrow(/does not exist/);
    expect(first.seen).toHaveLength(1);
  });

  test("behavior: accepts responses over viem's default 10 MB limit", async () => {
    // A valid JSON-RPC answer padded to 12 MB, like a dense eth_getLogs page.
    const body = `{"jsonrpc":"2.0","id":__ID__,"result":"0x7a69"${" ".repeat(12 * 1024 * 1024)}}`;
    first.rules.push({ match: (r) => r.method === "eth_chainId", fault: { kind: "body", body } });
    const plain = createPublicClient({ transport: http(first.url, { retryCount: 0 }) });
    await expect(plain.getChainId()).rejects.toThrow(/exceeded the size limit/);
    const client = createRpcClient({ urls: [first.url], chainId: CHAIN_ID, retryCount: 0 });
    expect(await client.getChainId()).toBe(CHAIN_ID);
  });
});

/** A minimal JSON-RPC server on 127.0.0.1 that records when each call (batched or not) arrived. */
interface CountingServer {
  url: string;
  /** Arrival time (performance.now()) of every call, the size of the HTTP request's batch, the call. */
  calls: { at: number; batchSize: number; method: string; params: unknown[] }[];
  /** When true, requests are accepted and never answered. */
  hang: boolean;
  /** Calls a second (in whole-second windows) above which a request gets 429 with Retry-After: 1. */
  limitPerSecond: number;
  /** Calls refused by that limit (not in `calls`). */
  refused: number;
  close(): Promise<void>;
}

async function startCountingServer(): Promise<CountingServer> {
  const sockets = new Set<Socket>();
  const state: Omit<CountingServer, "url" | "close"> = {
    calls: [],
    hang: false,
    limitPerSecond: Number.POSITIVE_INFINITY,
    refused: 0,
  };
  const window = { second: 0, calls: 0 };
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });
  type Call = { id: unknown; method: string; params?: unknown[] };
  const answer = (call: Call) => ({
    jsonrpc: "2.0",
    id: call.id,
    result: call.method === "eth_chainId" ? numberToHex(CHAIN_ID) : "0x0",
  });
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      const body = JSON.parse(text) as Call | Call[];
      const calls = Array.isArray(body) ? body : [body];
      const at = performance.now();
      const second = Math.floor(at / 1000);
      if (second !== window.second) Object.assign(window, { second, calls: 0 });
      if (window.calls + calls.length > state.limitPerSecond) {
        state.refused += calls.length;
        res.writeHead(429, { "content-type": "text/plain", "retry-after": "1" });
        res.end("Too Many Requests");
        return;
      }
      window.calls += calls.length;
      for (const call of calls) {
        state.calls.push({ at, batchSize: calls.length, method: call.method, params: call.params ?? [] });
      }
      if (state.hang) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}

/** Distinct addresses, so viem neither caches nor deduplicates the calls. */
const addressOf = (i: number) => numberToHex(i + 1, { size: 20 }) as Address;

describe("createRpcClient: rate limit and deadline", () => {
  let server: CountingServer;
  beforeEach(async () => {
    server = await startCountingServer();
    return () => server.close();
  });

  test("behavior: N calls at R per second take at least (N - burst) / R seconds, and all succeed", async () => {
    const client = createRpcClient({
      urls: [server.url],
      chainId: CHAIN_ID,
      requestsPerSecond: 20,
      burst: 2,
    });
    const start = performance.now();
    const balances = await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.getBalance({ address: addressOf(i) })),
    );
    const elapsed = performance.now() - start;
    expect(balances).toEqual(Array(12).fill(0n));
    expect(elapsed).toBeGreaterThanOrEqual(((12 - 2) / 20) * 1000 - 5);
    // The server saw them paced: by time t after the start, never more than burst + R * t calls.
    for (const [k, call] of server.calls.entries()) {
      expect(k + 1).toBeLessThanOrEqual(2 + Math.floor(((call.at - start) / 1000) * 20 + 1e-6));
    }
  });

  test("behavior: calls inside a JSON-RPC batch are counted one by one", async () => {
    const unlimited = createRpcClient({ urls: [server.url], chainId: CHAIN_ID, batch: true });
    await Promise.all(Array.from({ length: 20 }, (_, i) => unlimited.getBalance({ address: addressOf(i) })));
    // Without a limit the twenty calls go out as one batch.
    expect(server.calls.map((c) => c.batchSize)).toEqual(Array(20).fill(20));
    server.calls.length = 0;

    const client = createRpcClient({
      urls: [server.url],
      chainId: CHAIN_ID,
      batch: true,
      requestsPerSecond: 25,
      burst: 5,
    });
    const start = performance.now();
    await Promise.all(Array.from({ length: 20 }, (_, i) => client.getBalance({ address: addressOf(i) })));
    expect(performance.now() - start).toBeGreaterThanOrEqual(((20 - 5) / 25) * 1000 - 5);
    expect(server.calls).toHaveLength(20);
    // The burst still shares one batch: batching and the limit work together.
    expect(server.calls[0]?.batchSize).toBe(5);
  });

  test("behavior: whole blocks and block receipts go one to a request, so a node serves them side by side; other calls share a batch", async () => {
    const client = createRpcClient({ urls: [server.url], chainId: CHAIN_ID, batch: true });
    const block = (n: number, full: boolean) =>
      client.request({ method: "eth_getBlockByNumber", params: [numberToHex(n), full] });
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => block(i, true)),
      ...Array.from({ length: 4 }, (_, i) => block(i, false)),
      client.request({ method: "eth_getBlockReceipts" as "eth_chainId", params: ["0x1"] as never }),
    ]);
    const whole = server.calls.filter((c) => c.method === "eth_getBlockByNumber" && c.params[1] === true);
    const headers = server.calls.filter((c) => c.method === "eth_getBlockByNumber" && c.params[1] === false);
    expect(whole.map((c) => c.batchSize)).toEqual([1, 1, 1, 1]);
    expect(server.calls.filter((c) => c.method === "eth_getBlockReceipts").map((c) => c.batchSize)).toEqual([
      1,
    ]);
    expect(headers.map((c) => c.batchSize)).toEqual([4, 4, 4, 4]);
  });

  test("behavior: clients of one process share the budget of a URL", async () => {
    const options = { urls: [server.url], chainId: CHAIN_ID, requestsPerSecond: 16, burst: 1 };
    const a = createRpcClient(options);
    const b = createRpcClient(options);
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? a : b).getBalance({ address: addressOf(i) })),
    );
    expect(performance.now() - start).toBeGreaterThanOrEqual(((9 - 1) / 16) * 1000 - 5);
  });

  test("behavior: waiting for the rate limit does not count against the deadline", async () => {
    const client = createRpcClient({
      urls: [server.url],
      chainId: CHAIN_ID,
      requestsPerSecond: 10,
      burst: 1,
      timeoutMs: 150,
      deadlineMs: 200,
      retryCount: 0,
    });
    // The last call waits about 0.7 s for its turn, far past the 200 ms deadline, and succeeds.
    const balances = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.getBalance({ address: addressOf(i) })),
    );
    expect(balances).toHaveLength(8);
  });

  test("error: a server that accepts and never answers fails the call at its deadline", async () => {
    server.hang = true;
    const client = createRpcClient({
      urls: [server.url],
      chainId: CHAIN_ID,
      timeoutMs: 200,
      retryCount: 20,
      retryDelayMs: 50,
      maxRetryDelayMs: 200,
      deadlineMs: 700,
    });
    const start = performance.now();
    const error = await client.getChainId().catch((e: unknown) => e);
    const elapsed = performance.now() - start;
    expect(error).toBeInstanceOf(RpcDeadlineError);
    expect((error as RpcDeadlineError).shortMessage).toMatch(
      /^RPC call eth_chainId did not complete within its 700 ms deadline \(\d+ attempt\(s\)\)\.$/,
    );
    expect((error as Error).cause).toBeDefined();
    expect(elapsed).toBeGreaterThanOrEqual(690);
    // 21 attempts of 200 ms plus backoff would take over 6 s.
    expect(elapsed).toBeLessThan(3000);
    expect(server.calls.length).toBeGreaterThanOrEqual(2);
  });

  test("args: the default deadline is four times timeoutMs", async () => {
    server.hang = true;
    const client = createRpcClient({
      urls: [server.url],
      chainId: CHAIN_ID,
      timeoutMs: 150,
      retryCount: 50,
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
    });
    const start = performance.now();
    await expect(client.getChainId()).rejects.toThrow(/within its 600 ms deadline/);
    // 51 attempts of 150 ms would take over 7 s.
    expect(performance.now() - start).toBeLessThan(3500);
  });

  test("behavior: a head poll queued behind a burst of lookups and backfill goes out first, and lookups still get their turn", async () => {
    const options = { urls: [server.url], chainId: CHAIN_ID, requestsPerSecond: 20, burst: 1 };
    const lookups = createRpcClient({ ...options, lane: "lookup" as const });
    const backfill = createRpcClient({ ...options, lane: "backfill" as const });
    const headPoll = createRpcClient({ ...options, lane: "head" as const });
    // 30 lookups and 10 backfill calls queue at 20 calls a second (two seconds' worth); the head
    // poll asked after them all is let out next.
    const queued = [
      ...Array.from({ length: 30 }, (_, i) => lookups.getBalance({ address: addressOf(i) })),
      ...Array.from({ length: 10 }, (_, i) => backfill.getBalance({ address: addressOf(100 + i) })),
    ];
    const head = headPoll.getBlockNumber({ cacheTime: 0 });
    await Promise.all([head, ...queued]);
    const order = server.calls.map((c) => c.method);
    expect(order.indexOf("eth_blockNumber")).toBeLessThanOrEqual(2);
    // Backfill before lookups, yet a lookup went out before the backfill was done (one in four).
    const lastBackfill = server.calls.findLastIndex((c) => c.params[0] === addressOf(109));
    const lookupsBefore = server.calls.slice(0, lastBackfill).filter((c) => {
      const address = c.params[0] as string | undefined;
      return address !== undefined && Number(address) <= 30;
    });
    expect(lastBackfill).toBeLessThan(20);
    expect(lookupsBefore.length).toBeGreaterThan(0);
  });

  test("behavior: a URL's pace follows its 429s (slower at once, Retry-After honoured) and says so once", async () => {
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => warnings.push(message) };
    server.limitPerSecond = 10;
    const client = createRpcClient({ urls: [server.url], chainId: CHAIN_ID, retryDelayMs: 10, log });
    // 80 calls at once against a server that refuses above 10 a second (429, Retry-After: 1):
    // every call succeeds. The first second refuses most of the burst; then the pace falls
    // below the limit: refusals stay under 1.5 per call (without pacing, over 2 were measured).
    const balances = await Promise.all(
      Array.from({ length: 80 }, (_, i) => client.getBalance({ address: addressOf(i) })),
    );
    expect(balances).toEqual(Array(80).fill(0n));
    expect(server.refused).toBeGreaterThan(0);
    expect(server.refused).toBeLessThan(120);
    expect(warnings).toEqual(["rpc url is rate limited; pacing its calls to the rate it accepts"]);
  });

  test("error: invalid limits are refused at creation", () => {
    expect(() =>
      createRpcClient({ urls: [server.url], chainId: CHAIN_ID, requestsPerSecond: -1 }),
    ).toThrowErrorMatchingInlineSnapshot(`[Error: createRpcClient: requestsPerSecond must be >= 0, got -1]`);
    expect(() =>
      createRpcClient({ urls: [server.url], chainId: CHAIN_ID, deadlineMs: 0 }),
    ).toThrowErrorMatchingInlineSnapshot(`[Error: createRpcClient: deadlineMs must be positive, got 0]`);
  });
});
