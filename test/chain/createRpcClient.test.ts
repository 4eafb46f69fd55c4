import { createPublicClient, http } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import { findFreePort } from "../../src/devnet/findFreePort.js";
import { type Anvil, startAnvil } from "../../src/devnet/startAnvil.js";
import { type FaultProxy, startFaultProxy } from "./faultProxy.js";

const CHAIN_ID = 31337;
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
