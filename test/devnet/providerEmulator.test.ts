import { request as httpRequest } from "node:http";
import { gunzipSync } from "node:zlib";
import type { Anvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { devnetTokenAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import {
  COMMON_COMPUTE_UNITS,
  createProviderEmulator,
  DEFAULT_COMPUTE_UNITS,
  type ProviderEmulator,
} from "@swapgraph/devnet/emulator/createProviderEmulator.js";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hash,
  http,
  numberToHex,
  parseAbiItem,
} from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startTransferChain, type TransferChain } from "../support/startTransferChain.js";

// 30 blocks after the deployment; block i holds i % 4 transfers (a log each).
const BLOCKS = 30;
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

let anvil: Anvil;
let emulator: ProviderEmulator;
let token: Address;
let deployer: Address;
let firstBlock: bigint;
let head: bigint;
/** Transactions by block. */
let txs: Map<bigint, Hash[]>;
let chain: TransferChain;

async function post(
  url: string,
  body: unknown,
): Promise<{ status: number; headers: Headers; json: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});
const logsOf = (from: bigint, to: bigint) =>
  call("eth_getLogs", [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), address: token }]);

beforeAll(async () => {
  chain = await startTransferChain(BLOCKS);
  ({ anvil, token, deployer, firstBlock, head, txs } = chain);
  emulator = await createProviderEmulator({ upstream: anvil.rpcUrl });
});

afterAll(async () => {
  await emulator?.close();
  await anvil?.stop();
});

beforeEach(() => {
  emulator.setFaults({});
  emulator.reset();
});

/** Logs in blocks [from, to] as the chain has them (straight from anvil). */
async function chainLogCount(from: bigint, to: bigint): Promise<number> {
  const { json } = await post(anvil.rpcUrl, logsOf(from, to));
  return (json as { result: unknown[] }).result.length;
}

describe("createProviderEmulator: usage", () => {
  test("behavior: counts calls, answer bytes and compute units by method, each call of a batch on its own", async () => {
    const client = createPublicClient({
      transport: http(emulator.url, { batch: { batchSize: 10, wait: 0 }, retryCount: 0 }),
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => client.getBlock({ blockNumber: firstBlock + BigInt(i) })),
    );
    await client.getChainId();
    await client.request({ method: "eth_gasPrice" });
    const usage = emulator.usage();
    // 12 block reads in two batches (10 + 2), then two batches of one (viem batches every call).
    expect(usage.httpRequests).toBe(4);
    expect(usage.batches).toBe(4);
    expect(usage.byMethod.get("eth_getBlockByNumber")).toMatchObject({ calls: 12, errors: 0 });
    expect(usage.byMethod.get("eth_getBlockByNumber")!.computeUnits).toBe(12 * 16);
    expect(usage.byMethod.get("eth_chainId")).toMatchObject({ calls: 1, computeUnits: 0 });
    expect(usage.byMethod.get("eth_gasPrice")).toMatchObject({
      calls: 1,
      computeUnits: DEFAULT_COMPUTE_UNITS,
    });
    expect(usage.total.calls).toBe(14);
    expect(usage.total.computeUnits).toBe(12 * 16 + 0 + DEFAULT_COMPUTE_UNITS);
    // A single call's bytes are exactly what the node answers for it.
    const direct = await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call("eth_getBlockByNumber", [numberToHex(firstBlock), false], 7)),
    }).then((r) => r.text());
    emulator.reset();
    const { json } = await post(
      emulator.url,
      call("eth_getBlockByNumber", [numberToHex(firstBlock), false], 7),
    );
    expect(JSON.stringify(json)).toBe(direct);
    expect(emulator.usage().byMethod.get("eth_getBlockByNumber")!.bytes).toBe(Buffer.byteLength(direct));
  });

  test("behavior: answers a client that accepts gzip gzipped, as providers do, and counts the bytes on the wire beside the JSON", async () => {
    const body = JSON.stringify(call("eth_getBlockByNumber", [numberToHex(firstBlock), true], 3));
    const raw = (acceptGzip: boolean) =>
      new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
        const req = httpRequest(
          emulator.url,
          {
            method: "POST",
            headers: {
              "content-type": "application/json",
              ...(acceptGzip ? { "accept-encoding": "gzip" } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () =>
              resolve({ encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks) }),
            );
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const plain = await raw(false);
    expect(plain.encoding).toBeUndefined();
    expect(emulator.usage().wireBytes).toBe(plain.bytes.length);
    expect(emulator.usage().total.bytes).toBe(plain.bytes.length);
    emulator.reset();
    const zipped = await raw(true);
    expect(zipped.encoding).toBe("gzip");
    // The same answer, fewer bytes on the wire; the JSON bytes are counted as before.
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length);
    expect(emulator.usage().wireBytes).toBe(zipped.bytes.length);
    expect(emulator.usage().total.bytes).toBe(plain.bytes.length);
  });

  test("behavior: counts the wall time the node was answering, overlapping requests once and the client's own time not at all", async () => {
    const timed = async (body: unknown) => {
      const started = performance.now();
      await post(emulator.url, body);
      return performance.now() - started;
    };
    const started = performance.now();
    const latencies = await Promise.all(
      Array.from({ length: 16 }, (_, i) => timed(logsOf(firstBlock, firstBlock + BigInt(i % 8)))),
    );
    const wall = performance.now() - started;
    const concurrent = emulator.usage().nodeBusyMs;
    expect(concurrent).toBeGreaterThan(0);
    // The union of the waits: never more than the wall time, less than their sum.
    expect(concurrent).toBeLessThanOrEqual(wall);
    expect(concurrent).toBeLessThan(latencies.reduce((a, b) => a + b, 0));

    emulator.reset();
    const first = await timed(call("eth_blockNumber"));
    // The client's own work between two requests (here 300 ms of it) is not the node's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await timed(call("eth_blockNumber"));
    const sequential = emulator.usage().nodeBusyMs;
    expect(sequential).toBeGreaterThan(0);
    expect(sequential).toBeLessThanOrEqual(first + second);
  });
  test("args: the default prices are the common providers' table", () => {
    expect(COMMON_COMPUTE_UNITS).toEqual({
      eth_getLogs: 75,
      eth_getBlockByNumber: 16,
      eth_getTransactionByHash: 17,
      eth_getTransactionReceipt: 15,
      eth_call: 26,
      eth_getTransactionCount: 26,
      eth_blockNumber: 10,
      eth_chainId: 0,
      eth_getBlockReceipts: 500,
    });
    expect(DEFAULT_COMPUTE_UNITS).toBe(20);
  });
});

describe("createProviderEmulator: eth_getLogs limits", () => {
  test("error: a block-range cap answers in each provider's words; ranges within it pass", async () => {
    const from = firstBlock;
    const to = firstBlock + 11n;
    emulator.setFaults({ logRange: { blocks: 10 } });
    const quicknode = await post(emulator.url, logsOf(from, to));
    expect(quicknode.status).toBe(413);
    expect(quicknode.json).toMatchInlineSnapshot(`
      {
        "error": {
          "code": -32614,
          "message": "eth_getLogs is limited to a 10 range",
        },
        "id": 1,
        "jsonrpc": "2.0",
      }
    `);
    emulator.setFaults({ logRange: { blocks: 10_000, style: "quicknode" } });
    expect((await post(emulator.url, logsOf(0n, 10_000n))).json).toMatchObject({
      error: { message: "eth_getLogs is limited to a 10,000 range" },
    });
    emulator.setFaults({ logRange: { blocks: 10, style: "infura" } });
    expect((await post(emulator.url, logsOf(from, to))).json).toMatchObject({
      error: { code: -32602, message: "range 12 exceeds limit of 10" },
    });
    emulator.setFaults({ logRange: { blocks: 10, style: "alchemy" } });
    const alchemy = await post(emulator.url, logsOf(from, to));
    expect(alchemy.status).toBe(200);
    expect((alchemy.json as { error: { message: string } }).error.message).toBe(
      `Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [${numberToHex(from)}, ${numberToHex(from + 9n)}]. Upgrade to PAYG for expanded block range.`,
    );
    const fits = await post(emulator.url, logsOf(from, from + 9n));
    expect((fits.json as { result: unknown[] }).result).toHaveLength(await chainLogCount(from, from + 9n));
    expect(emulator.usage().faults.logRange).toBe(4);
    // Refusals are answered by the provider: counted and charged as calls with an error.
    expect(emulator.usage().byMethod.get("eth_getLogs")).toMatchObject({ calls: 5, errors: 4 });
  });

  test("error: a result-count cap refuses and names the widest range that fits", async () => {
    const total = await chainLogCount(firstBlock, head);
    expect(total).toBeGreaterThan(20);
    emulator.setFaults({ logCount: { logs: 10 } });
    const infura = (await post(emulator.url, logsOf(firstBlock, head))).json as {
      error: { code: number; message: string; data: { from: string; to: string; limit: number } };
    };
    expect(infura.error.code).toBe(-32005);
    const { from, to } = infura.error.data;
    expect(infura.error.message).toBe(
      `query returned more than 10 results. Try with this block range [${from}, ${to}].`,
    );
    // The suggestion holds at most 10 logs, and one block more would not.
    expect(await chainLogCount(BigInt(from), BigInt(to))).toBeLessThanOrEqual(10);
    expect(await chainLogCount(BigInt(from), BigInt(to) + 1n)).toBeGreaterThan(10);
    expect((await post(emulator.url, logsOf(BigInt(from), BigInt(to)))).json).toHaveProperty("result");

    // Alchemy answers any count within its free block range, and caps the count beyond it.
    emulator.setFaults({ logCount: { logs: 10, style: "alchemy", freeBlocks: 2000 } });
    expect((await post(emulator.url, logsOf(firstBlock, head))).json).toHaveProperty("result");
    emulator.setFaults({ logCount: { logs: 10, style: "alchemy", freeBlocks: 5 } });
    const alchemy = (await post(emulator.url, logsOf(firstBlock, head))).json as {
      error: { code: number; message: string };
    };
    expect(alchemy.error.code).toBe(-32602);
    expect(alchemy.error.message).toMatch(
      /^Log response size exceeded\. You can make eth_getLogs requests with up to a 5 block range and no limit on the response size, or you can request any block range with a cap of 10 logs in the response\. Based on your parameters and the response size limit, this block range should work: \[0x[0-9a-f]+, 0x[0-9a-f]+\]$/,
    );
    expect(emulator.usage().faults.logCount).toBe(2);
  });
});

describe("createProviderEmulator: batches and rate limits", () => {
  test("error: a batch over the cap is refused whole, as geth and NodeReal word it", async () => {
    const batch = (n: number) => Array.from({ length: n }, (_, i) => call("eth_blockNumber", [], i + 1));
    emulator.setFaults({ batchSize: { calls: 5 } });
    const geth = await post(emulator.url, batch(6));
    expect(geth.status).toBe(200);
    expect(geth.json).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "batch too large" } },
    ]);
    expect((await post(emulator.url, batch(5))).json).toHaveLength(5);
    emulator.setFaults({ batchSize: { calls: 5, style: "nodereal" } });
    expect((await post(emulator.url, batch(6))).json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32005, message: "batch size exceed limit 5" },
    });
    const usage = emulator.usage();
    // Refused calls are not charged; the batch of 5 was.
    expect(usage.refused).toBe(12);
    expect(usage.faults.batchSize).toBe(12);
    expect(usage.byMethod.get("eth_blockNumber")!.calls).toBe(5);
  });

  test("error: above the call rate, whole requests get HTTP 429 with Retry-After", async () => {
    emulator.setFaults({ rateLimit: { callsPerSecond: 5 } });
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await post(emulator.url, call("eth_chainId")));
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(5);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(limited[0]!.json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: 429,
        message:
          "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput",
      },
    });
    emulator.setFaults({ rateLimit: { callsPerSecond: 1, burst: 1, retryAfterSeconds: 2, style: "infura" } });
    await post(emulator.url, call("eth_chainId"));
    const infura = await post(emulator.url, call("eth_chainId"));
    expect(infura.status).toBe(429);
    expect(infura.headers.get("retry-after")).toBe("2");
    expect(infura.json).toMatchObject({
      error: { code: -32005, message: "project ID request rate exceeded" },
    });
    expect(emulator.usage().faults.rateLimit).toBe(limited.length + 1);
  });
});

describe("createProviderEmulator: a lagging node behind the balancer", () => {
  const LAG = 5n;

  test("behavior: the head is the up-to-date node's; logs, blocks, transactions and calls come from a node 5 blocks behind", async () => {
    emulator.setFaults({ lag: { blocks: Number(LAG) } });
    const behind = head - LAG;
    const client = createPublicClient({ transport: http(emulator.url, { retryCount: 0 }) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head);
    // Logs: those of the last 5 blocks are missing; a range wholly above the lagging head is empty.
    const logs = await client.getLogs({
      address: token,
      event: transferEvent,
      fromBlock: firstBlock,
      toBlock: head,
    });
    expect(logs.length).toBe(await chainLogCount(firstBlock, behind));
    expect(logs.length).toBeLessThan(await chainLogCount(firstBlock, head));
    expect(logs.every((log) => log.blockNumber <= behind)).toBe(true);
    expect(
      await client.getLogs({ address: token, event: transferEvent, fromBlock: behind + 1n, toBlock: head }),
    ).toEqual([]);
    // Blocks: null above its head (viem throws BlockNotFoundError); "latest" is its head.
    await expect(client.getBlock({ blockNumber: head })).rejects.toThrow(/could not be found/);
    expect((await client.getBlock()).number).toBe(behind);
    expect((await client.getBlock({ blockNumber: behind })).number).toBe(behind);
    // Transactions and receipts of the hidden blocks are unknown to it.
    const hidden = [...txs.entries()].find(([block, hashes]) => block > behind && hashes.length > 0)!;
    const seen = [...txs.entries()].find(([block, hashes]) => block <= behind && hashes.length > 0)!;
    const raw = (method: string, hash: Hash) => post(emulator.url, call(method, [hash])).then((a) => a.json);
    expect(await raw("eth_getTransactionByHash", hidden[1][0]!)).toMatchObject({ result: null });
    expect(await raw("eth_getTransactionReceipt", hidden[1][0]!)).toMatchObject({ result: null });
    expect(await raw("eth_getTransactionByHash", seen[1][0]!)).toMatchObject({
      result: { hash: seen[1][0] },
    });
    // eth_call at a block it has not seen.
    const balanceCall = {
      to: token,
      data: encodeFunctionData({ abi: devnetTokenAbi, functionName: "balanceOf", args: [deployer] }),
    };
    expect((await post(emulator.url, call("eth_call", [balanceCall, numberToHex(head)]))).json).toMatchObject(
      {
        error: { code: -32000, message: "header not found" },
      },
    );
    expect((await post(emulator.url, call("eth_call", [balanceCall, "latest"]))).json).toHaveProperty(
      "result",
    );
    const usage = emulator.usage();
    expect(usage.faults.lag).toBe(6);
    expect(usage.byMethod.get("eth_blockNumber")!.calls).toBe(1);
  });

  test("behavior: beyondHead error answers a range past the lagging head with geth's words; the lag ends when switched off", async () => {
    emulator.setFaults({ lag: { blocks: Number(LAG), beyondHead: "error" } });
    expect((await post(emulator.url, logsOf(firstBlock, head))).json).toMatchObject({
      error: { code: -32602, message: "block range extends beyond current head block" },
    });
    emulator.setFaults({ lag: { blocks: Number(LAG), methods: ["eth_getBlockByNumber"] } });
    // Only the listed methods go to the lagging node.
    expect((await post(emulator.url, logsOf(firstBlock, head))).json).toMatchObject({
      result: expect.any(Array),
    });
    expect(
      (await post(emulator.url, call("eth_getBlockByNumber", [numberToHex(head), false]))).json,
    ).toMatchObject({
      result: null,
    });
    emulator.setFaults({});
    expect(
      (await post(emulator.url, call("eth_getBlockByNumber", [numberToHex(head), false]))).json,
    ).toMatchObject({
      result: { number: numberToHex(head) },
    });
  });
});

describe("createProviderEmulator: a node without old state", () => {
  test("error: state reads more than the kept blocks below the head get geth's missing trie node; newer ones and logs pass", async () => {
    emulator.setFaults({ prunedState: { blocks: 10 } });
    const codeAt = (block: bigint) => call("eth_getCode", [token, numberToHex(block)]);
    const old = await post(emulator.url, codeAt(head - 11n));
    expect(old.json).toMatchObject({
      error: { code: -32000, message: expect.stringMatching(/^missing trie node [0-9a-f]{64} \(path \)$/) },
    });
    expect((await post(emulator.url, codeAt(head - 10n))).json).toMatchObject({
      result: expect.stringMatching(/^0x[0-9a-f]{10,}$/),
    });
    expect((await post(emulator.url, call("eth_getCode", [token, "latest"]))).json).toMatchObject({
      result: expect.stringMatching(/^0x[0-9a-f]{10,}$/),
    });
    const balance = await post(emulator.url, call("eth_getBalance", [deployer, numberToHex(firstBlock)]));
    expect(balance.json).toMatchObject({ error: { code: -32000 } });
    expect((await post(emulator.url, logsOf(firstBlock, head))).json).toMatchObject({
      result: expect.any(Array),
    });
    expect(emulator.usage().faults.prunedState).toBe(2);
  });
});
