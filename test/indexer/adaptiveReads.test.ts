import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { createPublicClient, createWalletClient, type Hex, http, parseAbiItem, toEventSelector } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { swapEventAbi, syncEventAbi } from "../../src/chain/abis.js";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import type { RpcTimeSample } from "../../src/chain/createRpcTimings.js";
import { getRpcTimings } from "../../src/chain/getRpcTimings.js";
import {
  DEFAULT_COMPUTE_UNITS,
  readsWholeBlock,
  type SenderReadCosts,
} from "../../src/chain/readsWholeBlock.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import type { Address, RpcCostModel } from "../../src/domain/types.js";
import type { IndexerLogger } from "../../src/indexer/createIndexerContext.js";
import { bloomBits, bloomHasBits } from "../../src/indexer/rangeEvents.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { type FaultProxy, startFaultProxy } from "../chain/faultProxy.js";
import { chainHead, revert, sendSwap, snapshot, startTestDevnet, testClient } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
const costs = (model: RpcCostModel, more: Partial<SenderReadCosts> = {}): SenderReadCosts => ({
  model,
  transactionsPerBlock: 150,
  ...more,
});

describe("readsWholeBlock", () => {
  test("behavior: at common providers' compute units a block with one trade is read whole (16 < 17)", () => {
    expect(DEFAULT_COMPUTE_UNITS.eth_getBlockByNumber).toBeLessThan(
      DEFAULT_COMPUTE_UNITS.eth_getTransactionByHash!,
    );
    expect(readsWholeBlock(1, false, costs("computeUnits"))).toBe(true);
    expect(readsWholeBlock(0, true, costs("computeUnits"))).toBe(false);
  });

  test("args: a price table where blocks cost more switches with the trades a block holds", () => {
    const dear = costs("computeUnits", { computeUnits: { eth_getBlockByNumber: 40 } });
    expect(readsWholeBlock(1, false, dear)).toBe(false);
    expect(readsWholeBlock(2, false, dear)).toBe(false);
    expect(readsWholeBlock(3, false, dear)).toBe(true);
    // A header read anyway is replaced by the block: 1 trade + header = 57 > 40.
    expect(readsWholeBlock(1, true, dear)).toBe(true);
  });

  test("args: by bytes, a block is read whole only when its trades are most of its transactions", () => {
    expect(readsWholeBlock(20, false, costs("bytes", { transactionsPerBlock: 150 }))).toBe(false);
    expect(readsWholeBlock(150, true, costs("bytes", { transactionsPerBlock: 150 }))).toBe(true);
    expect(readsWholeBlock(8, true, costs("bytes", { transactionsPerBlock: 8 }))).toBe(true);
  });

  test("args: by calls, one call for two or more", () => {
    expect(readsWholeBlock(1, false, costs("calls"))).toBe(false);
    expect(readsWholeBlock(1, true, costs("calls"))).toBe(true);
    expect(readsWholeBlock(2, false, costs("calls"))).toBe(true);
  });

  // A measured client: 50 ms round trips, 1 MB/s (1 ms per KB).
  const remote = (more: Partial<RpcTimeSample> = {}): RpcTimeSample => ({
    latencyMs: 50,
    msPerByte: 1 / 1_000,
    throughputMeasured: true,
    answerBytes: {},
    batched: false,
    ...more,
  });

  test("behavior: by time, before any measurement the choice is the bytes model's", () => {
    for (const [trades, header, perBlock] of [
      [20, false, 150],
      [150, true, 150],
      [8, true, 8],
      [1, false, 3],
    ] as const) {
      expect(readsWholeBlock(trades, header, costs("time", { transactionsPerBlock: perBlock }))).toBe(
        readsWholeBlock(trades, header, costs("bytes", { transactionsPerBlock: perBlock })),
      );
    }
  });

  test("args: by time, unbatched round trips weigh against a block's bytes", () => {
    // A 150-transaction block is ~83 KB: 50 + 83 ms. Three transactions alone: 3 x 50 + 2 ms.
    expect(readsWholeBlock(3, false, costs("time", { time: remote() }))).toBe(true);
    expect(readsWholeBlock(2, false, costs("time", { time: remote() }))).toBe(false);
    // On a fast link bytes hardly count: two round trips already cost more than one.
    expect(readsWholeBlock(2, false, costs("time", { time: remote({ msPerByte: 1 / 100_000 }) }))).toBe(true);
    // Measured block sizes win over the estimate from transactions per block.
    const small = remote({ answerBytes: { "eth_getBlockByNumber+transactions": 5_000 } });
    expect(readsWholeBlock(1, true, costs("time", { time: small }))).toBe(true);
  });

  test("args: by time, batched transactions share the range's round trip: a block goes whole only when its own trip costs less than the bytes it saves", () => {
    const batched = remote({ batched: true });
    expect(readsWholeBlock(20, false, costs("time", { time: batched }))).toBe(false);
    expect(readsWholeBlock(150, true, costs("time", { time: batched }))).toBe(false);
    // A block of three trades whose header is read anyway: 2,000 bytes whole, 2,830 by hash (with
    // the header). Over a 50 ms round trip by hash; on a local node (0.5 ms) whole.
    const answerBytes = { "eth_getBlockByNumber+transactions": 2_000, eth_getTransactionByHash: 610 };
    expect(readsWholeBlock(3, true, costs("time", { time: remote({ batched: true, answerBytes }) }))).toBe(
      false,
    );
    const local = remote({ batched: true, answerBytes, latencyMs: 0.5 });
    expect(readsWholeBlock(3, true, costs("time", { time: local }))).toBe(true);
    expect(readsWholeBlock(1, false, costs("time", { time: local }))).toBe(false);
  });
});

// The real path: a devnet behind a proxy that records every call.
let devnet: Devnet;
let proxy: FaultProxy;
let config: NetworkConfig;

beforeAll(async () => {
  devnet = await startTestDevnet({ swapsPerNetwork: 120, traders: 20, seed: 11 });
  proxy = await startFaultProxy(devnet.networks[0]!.rpcUrls[0]!);
  config = { ...devnet.networks[0]!, rpcUrls: [proxy.url], pollIntervalMs: 50 };
});

afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
});

const SWAP = toEventSelector(swapEventAbi);
const SYNC = toEventSelector(syncEventAbi);
const TRANSFER = toEventSelector(
  parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
);

/** Whether a block's logs bloom says it may hold a log with `topic`, as the range reader asks it. */
const bloomMayHold = (bloom: string | undefined, topic: Hex) => bloomHasBits(bloom, bloomBits(topic));

describe("bloomHasBits", () => {
  test("behavior: a real block's bloom holds the topics of its logs and not others", async () => {
    const client = createPublicClient({ transport: http(devnet.chains[0]!.rpcUrl) });
    const [swap] = await client.getLogs({ event: swapEventAbi, fromBlock: 0n });
    const block = await client.getBlock({ blockNumber: swap!.blockNumber });
    expect(bloomMayHold(block.logsBloom, SWAP)).toBe(true);
    expect(bloomMayHold(block.logsBloom, SYNC)).toBe(true);
    expect(bloomMayHold(block.logsBloom, TRANSFER)).toBe(true);
    const empty = `0x${"0".repeat(512)}` as Hex;
    expect(bloomMayHold(empty, SWAP)).toBe(false);
    // No bloom: no evidence either way.
    expect(bloomMayHold(undefined, SWAP)).toBe(false);
  });
});

interface Run {
  store: Store;
  indexing: Indexing;
}

async function index(
  model: RpcCostModel | "auto",
  more: Partial<NetworkConfig["rpc"]> = {},
  log: IndexerLogger = silent,
): Promise<Run> {
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const cfg = { ...config, rpc: { ...config.rpc, costModel: model, ...more } };
  const indexing = createIndexing({ networks: [cfg], store, log });
  indexing.start();
  await waitUntilIndexed(indexing.views, cfg.name, { to: { rpcUrl: devnet.chains[0]!.rpcUrl } });
  return { store, indexing };
}

/** A block read with its transactions by number (not a head poll's "latest"). */
function isWholeByNumber(call: { method: string; params: unknown[] }): boolean {
  return (
    call.method === "eth_getBlockByNumber" &&
    call.params[1] === true &&
    typeof call.params[0] === "string" &&
    call.params[0].startsWith("0x")
  );
}

/** The calls the proxy saw from `since`, by method; whole-block reads apart. */
function callsSince(since: number) {
  const calls = proxy.seen.slice(since);
  return {
    // Blocks read by number (a head poll asks for "latest").
    wholeBlocks: calls
      .filter((call) => isWholeByNumber(call))
      .map((call) => BigInt(call.params[0] as string)),
    byHash: calls.filter((call) => call.method === "eth_getTransactionByHash").length,
    logs: calls.filter((call) => call.method === "eth_getLogs").length,
  };
}

describe("adaptive reads on a real chain", () => {
  test("behavior: the cost model decides how signers are read, the trades are the same, and one eth_getLogs serves pools and the wrapped coin", async () => {
    const runs: Run[] = [];
    try {
      let since = proxy.seen.length;
      const units = await index("computeUnits");
      runs.push(units);
      const byUnits = callsSince(since);
      since = proxy.seen.length;
      const calls = await index("calls");
      runs.push(calls);
      const byCalls = callsSince(since);
      since = proxy.seen.length;
      const bytes = await index("bytes");
      runs.push(bytes);
      const byBytes = callsSince(since);

      const trades = await listAllTrades(units.store, config.name, 0);
      expect(trades.length).toBeGreaterThan(100);
      const perBlock = new Map<bigint, number>();
      for (const trade of trades) perBlock.set(trade.blockNumber, (perBlock.get(trade.blockNumber) ?? 0) + 1);
      // Compute units: every block with a trade is read whole (16 units), no transaction by hash (17 each).
      expect(byUnits.byHash).toBe(0);
      expect(new Set(byUnits.wholeBlocks)).toEqual(new Set(perBlock.keys()));
      // Calls: a block of two trades or more is one call; only single trades may go by hash.
      const several = [...perBlock].filter(([, count]) => count >= 2).map(([block]) => block);
      expect(several.length).toBeGreaterThan(10);
      for (const block of several) expect(byCalls.wholeBlocks).toContain(block);
      expect(byCalls.byHash).toBeLessThanOrEqual(perBlock.size - several.length);
      // Bytes: a transaction read alone weighs what it weighs inside its block, so blocks are read
      // whole only when they hold little but trades and their header is needed anyway.
      expect(byBytes.byHash).toBeGreaterThan(trades.length / 2);
      // Whichever way, the same trades with the same signers.
      for (const run of [calls, bytes])
        expect(await listAllTrades(run.store, config.name, 0)).toEqual(trades);
      // One log call per range: never a second one for the wrapped coin.
      for (const seen of [byUnits, byCalls, byBytes]) expect(seen.logs).toBeLessThan(10);
    } finally {
      for (const run of runs) {
        await run.indexing.stop();
        await run.store.close();
      }
    }
  }, 180_000);

  test("behavior: auto prices a local node by time and configured prices by compute units; every model indexes the same trades", async () => {
    const chosen: object[] = [];
    const recording = {
      ...silent,
      info: (obj: object, msg?: string) => {
        if (msg === "rpc cost model chosen") chosen.push(obj);
      },
    };
    const runs: Run[] = [];
    try {
      let since = proxy.seen.length;
      const units = await index("computeUnits");
      runs.push(units);
      const byUnits = callsSince(since);
      since = proxy.seen.length;
      const auto = await index("auto", {}, recording);
      runs.push(auto);
      const byAuto = callsSince(since);
      since = proxy.seen.length;
      const priced = await index("auto", { computeUnits: { eth_getTransactionByHash: 17 } }, recording);
      runs.push(priced);
      const byPriced = callsSince(since);

      expect(chosen).toEqual([
        {
          network: config.name,
          costModel: "time",
          why: "no rpc.computeUnits and no RPC URL of a known metered provider",
        },
        { network: config.name, costModel: "computeUnits", why: "rpc.computeUnits is configured" },
      ]);
      // Priced: every block with a trade whole, as the compute-unit model reads.
      expect(byPriced.byHash).toBe(0);
      expect(new Set(byPriced.wholeBlocks)).toEqual(new Set(byUnits.wholeBlocks));
      // By time over a batching client, transactions by hash ride in the range's batches: most
      // signers are read by hash, not by whole block.
      expect(byAuto.byHash).toBeGreaterThan(byAuto.wholeBlocks.length);
      const trades = await listAllTrades(units.store, config.name, 0);
      expect(trades.length).toBeGreaterThan(100);
      for (const run of [auto, priced])
        expect(await listAllTrades(run.store, config.name, 0)).toEqual(trades);
    } finally {
      for (const run of runs) {
        await run.indexing.stop();
        await run.store.close();
      }
    }
  }, 180_000);

  test("behavior: a client measures its round trip and the bytes of each method's answers", async () => {
    const client = createRpcClient({ urls: [proxy.url], chainId: config.chainId, batch: true });
    const timings = getRpcTimings(client)!;
    expect(timings.sample()).toBeUndefined();
    for (let i = 0; i < 3; i++) await client.getBlockNumber();
    const [swap] = await client.getLogs({ event: swapEventAbi, fromBlock: 0n });
    await client.getBlock({ blockNumber: swap!.blockNumber, includeTransactions: true });
    await client.getTransaction({ hash: swap!.transactionHash });
    const sample = timings.sample()!;
    expect(sample.latencyMs).toBeGreaterThan(0);
    expect(sample.batched).toBe(true);
    const bytes = sample.answerBytes;
    // The bytes of the answers as sent: a transaction weighs hundreds of bytes, its block more.
    expect(bytes.eth_getTransactionByHash).toBeGreaterThan(300);
    expect(bytes["eth_getBlockByNumber+transactions"]).toBeGreaterThan(bytes.eth_getTransactionByHash!);
    expect(bytes.eth_blockNumber).toBeLessThan(100);
  });

  test("behavior: as density changes so does the read: a lone trade among transfers by hash, a block of trades whole", async () => {
    const chain = devnet.chains[0]!;
    const wallet = createWalletClient({ transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const client = testClient(chain.rpcUrl);
    const id = await snapshot(chain.rpcUrl);
    await client.setAutomine(false);
    const runs: Run[] = [];
    try {
      const trader = chain.traders[0] as Address;
      const lone = await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 16n, mine: false });
      for (let i = 0; i < 30; i++) {
        await wallet.sendTransaction({
          account: chain.traders[1 + (i % 5)] as Address,
          chain: null,
          to: trader,
          value: 1n,
          gas: 21_000n,
        });
      }
      await client.mine({ blocks: 1 });
      const sparse = await chainHead(chain.rpcUrl);
      for (let i = 0; i < 16; i++) {
        await sendSwap(chain, {
          path: ["", "USDT"],
          amountIn: 10n ** 16n,
          trader: chain.traders[i] as Address,
          mine: false,
        });
      }
      await client.mine({ blocks: 1 });
      const dense = sparse + 1n;
      // Both settle below the unfinalized window, where no header is read for hash links.
      await client.mine({ blocks: config.finalityDepth + 8 });
      await client.setAutomine(true);

      let since = proxy.seen.length;
      const calls = await index("calls");
      runs.push(calls);
      const seen = proxy.seen.slice(since);
      const whole = (n: bigint) =>
        seen.filter((call) => isWholeByNumber(call) && BigInt(call.params[0] as string) === n).length;
      expect(whole(dense)).toBe(1);
      expect(whole(sparse)).toBe(0);
      expect(
        seen.filter((call) => call.method === "eth_getTransactionByHash" && call.params[0] === lone),
      ).toHaveLength(1);
      since = proxy.seen.length;
      const units = await index("computeUnits");
      runs.push(units);
      const unitCalls = proxy.seen.slice(since);
      expect(unitCalls.filter((call) => call.method === "eth_getTransactionByHash")).toHaveLength(0);
      const stored = await listAllTrades(calls.store, config.name, 0);
      expect(stored.filter((trade) => trade.blockNumber === dense)).toHaveLength(16);
      expect(stored.filter((trade) => trade.blockNumber === sparse).map((trade) => trade.txHash)).toEqual([
        lone,
      ]);
      expect(await listAllTrades(units.store, config.name, 0)).toEqual(stored);
    } finally {
      for (const run of runs) {
        await run.indexing.stop();
        await run.store.close();
      }
      await client.setAutomine(true);
      await revert(chain.rpcUrl, id);
    }
  }, 180_000);

  test("behavior: following a chain that makes a block a poll costs two calls a block, the poll bringing the block; a still chain is polled by number", async () => {
    const chain = devnet.chains[0]!;
    const client = testClient(chain.rpcUrl);
    const run = await index("computeUnits");
    const id = await snapshot(chain.rpcUrl);
    const isPoll = (call: { method: string; params: unknown[] }) =>
      call.method === "eth_blockNumber" ||
      (call.method === "eth_getBlockByNumber" && call.params[0] === "latest");
    const BLOCKS = 9;
    // Polls that found nothing while the chain stood still pull the share of advancing polls
    // toward 0; four advancing polls lift it to at least 1 - 0.8^4 = 0.59 whatever it was, so
    // from the fifth mined block on every poll is whole.
    const STEADY = 4;
    // Indexes into proxy.seen right after each poll that had a block mined before its answer.
    const marks: number[] = [];
    try {
      // The still chain first: polls that find nothing, so the ramp-up below is the worst case.
      const idleFrom = proxy.seen.length;
      await waitFor(
        () => proxy.seen.slice(idleFrom).filter((call) => call.method === "eth_blockNumber").length >= 6,
        20_000,
      );
      // One block a poll, whatever a swap sends (approvals included): mined by hand.
      await client.setAutomine(false);
      proxy.beforeForward = async (calls) => {
        if (marks.length >= BLOCKS || !calls.some(isPoll)) return;
        const trader = chain.traders[marks.length] as Address;
        await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 16n, trader, mine: false });
        await client.mine({ blocks: 1 });
        marks.push(proxy.seen.length);
        if (marks.length === BLOCKS) {
          // The next head poll lands on a node 3 blocks behind (a balancer's lagging node).
          const behind = await chainHead(chain.rpcUrl).then((head) => head - 3n);
          const block = await createPublicClient({ transport: http(chain.rpcUrl) }).request({
            method: "eth_getBlockByNumber",
            params: [`0x${behind.toString(16)}`, true],
          });
          proxy.rules.push({
            match: ({ method, params }) => method === "eth_getBlockByNumber" && params[0] === "latest",
            fault: { kind: "body", body: `{"jsonrpc":"2.0","id":__ID__,"result":${JSON.stringify(block)}}` },
            times: 1,
          });
        }
      };
      const reorgs = () => readEventCounts("reorgs").reduce((sum, count) => sum + count.value, 0);
      const reorgsBefore = reorgs();
      const last = (await chainHead(chain.rpcUrl)) + BigInt(BLOCKS);
      await waitUntilIndexed(run.indexing.views, config.name, { to: last, ready: false, timeoutMs: 60_000 });
      proxy.beforeForward = undefined;
      // From the fifth mined block to the last: each block's logs, then the next poll, which is the
      // next block read whole. Nothing else: no eth_blockNumber, no block read by number.
      const between = proxy.seen
        .slice(marks[STEADY], marks[BLOCKS - 1])
        .map((call) => `${call.method} ${String(call.params[0] === "latest" ? "latest" : "")}`.trim());
      expect(between).toEqual(
        Array.from({ length: BLOCKS - 1 - STEADY }, () => [
          "eth_getLogs",
          "eth_getBlockByNumber latest",
        ]).flat(),
      );
      const stored = await listAllTrades(run.store, config.name, 0);
      expect(stored.filter((trade) => trade.blockNumber > last - BigInt(BLOCKS))).toHaveLength(BLOCKS);
      // The lagging node's head, below the checkpoint, is asked again by number: no reorg, no rollback.
      await waitFor(() => proxy.rules.at(-1)?.times === 0, 20_000);
      const lagged = proxy.seen.findLastIndex((call) => call.outcome === "body");
      await waitFor(() => proxy.seen.length > lagged + 1, 20_000);
      expect(proxy.seen[lagged + 1]?.method).toBe("eth_blockNumber");
      expect(reorgs()).toBe(reorgsBefore);
      expect(run.indexing.views.status(config.name).indexedBlock).toBe(last);

      // A chain that stands still: after the one poll that found nothing, polls ask the number only.
      const since = proxy.seen.length;
      await waitFor(() => proxy.seen.slice(since).filter(isPoll).length >= 8, 20_000);
      const polls = proxy.seen.slice(since).filter(isPoll);
      expect(polls.slice(1).every((call) => call.method === "eth_blockNumber")).toBe(true);
    } finally {
      proxy.beforeForward = undefined;
      proxy.rules.length = 0;
      await run.indexing.stop();
      await run.store.close();
      await client.setAutomine(true);
      await revert(chain.rpcUrl, id);
    }
  }, 120_000);
});
