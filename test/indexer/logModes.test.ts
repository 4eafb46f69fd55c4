import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  devnetTokenAbi,
  uniswapV2FactoryAbi,
  uniswapV2RouterAbi,
} from "@swapgraph/devnet/deploy/devnetAbis.js";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  maxUint256,
  parseEther,
  toEventSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  pairBurnEventAbi,
  pairCreatedEventAbi,
  pairMintEventAbi,
  poolCreatedEventAbi,
  swapEventAbi,
  syncEventAbi,
} from "../../src/chain/abis.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { chooseLogMode } from "../../src/indexer/createRangeLogReader.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { type FaultProxy, getLogsSpan, startFaultProxy } from "../chain/faultProxy.js";
import { testClient } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("chooseLogMode", () => {
  const base = { model: "computeUnits", addressCalls: 1, foreignShare: 0, spanCapped: false } as const;

  test("behavior: one call by address costs what one by topic does: addresses, whatever the share", () => {
    for (const model of ["computeUnits", "calls", "bytes"] as const) {
      expect(chooseLogMode({ ...base, model })).toBe("addresses");
      expect(chooseLogMode({ ...base, model, foreignShare: 0.5, spanCapped: true })).toBe("addresses");
    }
  });

  test("args: a list in three calls pays off by calls only when two thirds of the logs are foreign", () => {
    expect(chooseLogMode({ ...base, addressCalls: 3, foreignShare: 0.5 })).toBe("topics");
    expect(chooseLogMode({ ...base, addressCalls: 3, foreignShare: 0.7 })).toBe("addresses");
    expect(chooseLogMode({ ...base, model: "calls", addressCalls: 3, foreignShare: 0.7 })).toBe("addresses");
    // Ranges as long as allowed already: a longer list is only more calls.
    expect(chooseLogMode({ ...base, addressCalls: 3, foreignShare: 0.9, spanCapped: true })).toBe("topics");
    // By bytes, leaving foreign logs out is what counts.
    expect(chooseLogMode({ ...base, model: "bytes", addressCalls: 3, foreignShare: 0.1 })).toBe("addresses");
    expect(chooseLogMode({ ...base, model: "bytes", addressCalls: 3, foreignShare: 0 })).toBe("topics");
  });

  test("behavior: by time, before any measurement the choice is the bytes model's", () => {
    for (const [addressCalls, foreignShare] of [
      [3, 0.1],
      [3, 0],
      [1, 0],
    ] as const) {
      const input = { ...base, addressCalls, foreignShare, topicLogs: 5_000 };
      expect(chooseLogMode({ ...input, model: "time" })).toBe(chooseLogMode({ ...input, model: "bytes" }));
    }
  });

  test("args: by time, addresses win when the foreign logs left out take longer than the extra round trips", () => {
    const time = {
      latencyMs: 50,
      msPerByte: 1 / 1_000,
      throughputMeasured: true,
      answerBytes: {},
      batched: true,
    };
    const input = { ...base, model: "time", time, addressCalls: 3 } as const;
    // 5,000 logs (2.5 MB, 2.5 s) by topic; a tenth foreign saves 250 ms for 1.7 extra round trips (85 ms).
    expect(chooseLogMode({ ...input, foreignShare: 0.1, topicLogs: 5_000 })).toBe("addresses");
    // 50 logs: the 2.5 ms saved do not pay for the round trips.
    expect(chooseLogMode({ ...input, foreignShare: 0.1, topicLogs: 50 })).toBe("topics");
    // On a local node (1 ms round trips, 100 MB/s) the same 5,000 logs: 2.5 ms saved, 1.7 ms more.
    const local = { ...time, latencyMs: 1, msPerByte: 1 / 100_000 };
    expect(chooseLogMode({ ...input, time: local, foreignShare: 0.1, topicLogs: 5_000 })).toBe("addresses");
    expect(chooseLogMode({ ...input, time: local, foreignShare: 0.05, topicLogs: 5_000 })).toBe("topics");
  });
});

// The real path: a BSC-shaped chain (20 configured-DEX trades and 20 swaps of a foreign
// Uniswap V2 fork a block) behind a proxy that records every call.
let devnet: Devnet;
let proxy: FaultProxy;
let config: NetworkConfig;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "swapgraph-logmodes-"));
  devnet = await startDevnet({
    profile: "bsc-shaped",
    blockMix: "issue17",
    blocks: 6,
    traders: 60,
    networks: ["bsc"],
    liveIntervalMs: 0,
    dataDir: dir,
  });
  const chain = devnet.chains[0]!;
  proxy = await startFaultProxy(chain.rpcUrl);
  config = {
    ...devnet.networks[0]!,
    rpcUrls: [proxy.url],
    pollIntervalMs: 50,
    startBlock: chain.history.fromBlock,
  };
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  store: Store;
  indexing: Indexing;
  /** The range reads (eth_getLogs over blocks) it made until it was ready. */
  rangeReads: { address?: string[]; topics?: unknown[] }[];
}

async function index(rpc: Partial<NetworkConfig["rpc"]>): Promise<Run> {
  const since = proxy.seen.length;
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const cfg = { ...config, rpc: { ...config.rpc, ...rpc } };
  const indexing = createIndexing({ networks: [cfg], store, log: silent });
  indexing.start();
  await waitUntilIndexed(indexing.views, cfg.name, { to: { rpcUrl: devnet.chains[0]!.rpcUrl } });
  return {
    store,
    indexing,
    rangeReads: proxy.seen
      .slice(since)
      // Range reads only: not the look-up of new pools' creation logs (factories, whole chain).
      .filter(
        (call) =>
          call.method === "eth_getLogs" && !isCreationLookup(call.params) && getLogsSpan(call.params) > 0,
      )
      .map((call) => call.params[0] as { address?: string[]; topics?: unknown[] }),
  };
}

/**
 * True for findPairCreations' eth_getLogs: the factories' creation logs over the whole chain (to
 * "latest"); range reads name their blocks by number (and ask for the creation topics too).
 */
function isCreationLookup(params: unknown[]): boolean {
  const filter = params[0] as { toBlock?: string; topics?: unknown[] };
  const first = filter.topics?.[0];
  const topics = Array.isArray(first) ? first : [first];
  return filter.toBlock === "latest" && topics.some((topic) => CREATION_TOPICS.includes(topic as Hex));
}

const CREATION_TOPICS = [toEventSelector(pairCreatedEventAbi), toEventSelector(poolCreatedEventAbi)];

// Receipts awaited at 50 ms polls, not viem's 4 s default (anvil mines each transaction at once).
const rpcOf = (url: string) => createPublicClient({ transport: http(url), pollingInterval: 50 });

describe("logs by topic or by the pools' addresses", () => {
  const runs: Run[] = [];
  afterAll(async () => {
    for (const run of runs) {
      await run.indexing.stop();
      await run.store.close();
    }
  });

  test("behavior: with a foreign fork logging as much as the configured DEX, logs are asked by the configured factories' pools; the trades equal those read by topic", async () => {
    const chain = devnet.chains[0]!;
    const byAddress = await index({});
    runs.push(byAddress);
    const byTopic = await index({ maxLogAddresses: 0 });
    runs.push(byTopic);

    const trades = await listAllTrades(byAddress.store, config.name, 0);
    expect(trades.length).toBeGreaterThanOrEqual(6 * 20);
    expect(await listAllTrades(byTopic.store, config.name, 0)).toEqual(trades);

    const foreign = new Set(chain.busy!.foreign.pools);
    expect(byAddress.rangeReads.length).toBeGreaterThan(0);
    for (const filter of byAddress.rangeReads) {
      expect(Array.isArray(filter.address)).toBe(true);
      expect(filter.address!.some((address) => foreign.has(address as Address))).toBe(false);
      // The wrapped coin is asked for too (routers wrapping what traders paid).
      expect(filter.address).toContain(chain.wrapped);
    }
    // Every pool a trade went through was in the list.
    const listed = new Set(byAddress.rangeReads[0]!.address);
    for (const trade of trades) for (const hop of trade.pools) expect(listed.has(hop)).toBe(true);
    for (const filter of byTopic.rangeReads) expect(filter.address).toBeUndefined();
    // By topic the fork's pools' logs came, were checked against the factories once, and refused.
    const swapped = new Set(
      (await rpcOf(chain.rpcUrl).getLogs({ event: swapEventAbi, fromBlock: chain.history.fromBlock })).map(
        (log) => log.address.toLowerCase() as Address,
      ),
    );
    const refused = await byTopic.store.listRejectedPairs(config.name);
    for (const pool of foreign) if (swapped.has(pool)) expect(refused).toContain(pool);
    expect(await byAddress.store.listRejectedPairs(config.name)).toEqual([]);
  }, 240_000);

  test("behavior: a pool the configured factory creates while the head is followed is read from its first block, in the same range as its creation", async () => {
    const run = runs[0]!;
    const chain = devnet.chains[0]!;
    const dex = chain.dexes[0]!;
    const rpc = rpcOf(chain.rpcUrl);
    // A meme coin only the foreign fork pools, and a trader holding it.
    const meme = Object.values(chain.busy!.foreignTokens)[0]!;
    const balances = await Promise.all(
      chain.traders.map((trader) =>
        rpc.readContract({
          address: meme,
          abi: devnetTokenAbi,
          functionName: "balanceOf",
          args: [trader as Address],
        }),
      ),
    );
    const trader = chain.traders[balances.findIndex((balance) => balance > 10n ** 18n)] as Address;
    expect(trader).toBeDefined();
    const wallet = createWalletClient({ account: trader, transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const send = (to: Address, data: `0x${string}`, value = 0n) =>
      wallet.sendTransaction({ chain: null, to, data, value, gas: 5_000_000n });
    const deadline = 2n ** 40n;
    const since = proxy.seen.length;
    const client = testClient(chain.rpcUrl);
    await client.setAutomine(false);
    try {
      await send(
        meme,
        encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [dex.router, maxUint256] }),
      );
      await send(
        dex.router,
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "addLiquidityETH",
          args: [meme, 10n ** 18n, 0n, 0n, trader, deadline],
        }),
        parseEther("1"),
      );
      const swap = await send(
        dex.router,
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "swapExactETHForTokens",
          args: [0n, [chain.wrapped, meme], trader, deadline],
        }),
        parseEther("0.01"),
      );
      await client.mine({ blocks: 1 });
      const pool = (
        await rpc.readContract({
          address: dex.factory,
          abi: uniswapV2FactoryAbi,
          functionName: "getPair",
          args: [meme, chain.wrapped],
        })
      ).toLowerCase() as Address;
      await waitFor(
        async () => (await listAllTrades(run.store, config.name, 0)).some((t) => t.txHash === swap),
        60_000,
      );
      const trade = (await listAllTrades(run.store, config.name, 0)).find((t) => t.txHash === swap)!;
      expect(trade.pools).toEqual([pool]);
      expect(trade.sender).toBe(trader.toLowerCase());
      // The new pool's logs were asked for by its address alone: Swap and Sync since its creation.
      const followUp = proxy.seen
        .slice(since)
        .filter((call) => call.method === "eth_getLogs")
        .map((call) => call.params[0] as { address?: string[]; topics?: unknown[] })
        .filter((filter) => filter.address?.length === 1 && filter.address[0] === pool);
      expect(followUp).toHaveLength(1);
      // The pools' own events (trades, reserves, liquidity), not the wrapped coin's.
      expect(followUp[0]!.topics).toEqual([
        [
          toEventSelector(swapEventAbi),
          toEventSelector(syncEventAbi),
          toEventSelector(pairMintEventAbi),
          toEventSelector(pairBurnEventAbi),
        ],
      ]);
      // Reads of other ranges begun beside it lacked the pool: the range was read again, and the
      // second read's list names the pool (the pool epoch moved).
      const created = (await rpc.getTransactionReceipt({ hash: swap })).blockNumber;
      const covering = proxy.seen
        .slice(since)
        // Range reads only: not the look-up of new pools' creation logs (factories, whole chain).
        .filter(
          (call) =>
            call.method === "eth_getLogs" && !isCreationLookup(call.params) && getLogsSpan(call.params) > 0,
        )
        .map((call) => call.params[0] as { fromBlock: string; toBlock: string; address?: string[] })
        .filter(
          (filter) =>
            (filter.address?.length ?? 0) > 1 &&
            BigInt(filter.fromBlock) <= created &&
            BigInt(filter.toBlock) >= created,
        );
      expect(covering.length).toBeGreaterThanOrEqual(2);
      expect(covering.at(-1)!.address).toContain(pool);
      expect(covering[0]!.address).not.toContain(pool);
    } finally {
      await client.setAutomine(true);
    }
  }, 120_000);

  test("behavior: by address, a block where only another DEX swapped is no sign of missing logs: no re-read", async () => {
    const run = runs[0]!;
    const chain = devnet.chains[0]!;
    const rpc = rpcOf(chain.rpcUrl);
    const fork = chain.busy!.foreign;
    // A meme coin the fork pools with a listed token, so that the wrapped coin logs nothing.
    const listed = Object.values(chain.tokens) as Address[];
    let route: [Address, Address] | undefined;
    for (const meme of Object.values(chain.busy!.foreignTokens)) {
      for (const token of listed) {
        if (token === chain.wrapped) continue;
        const pair = await rpc.readContract({
          address: fork.factory,
          abi: uniswapV2FactoryAbi,
          functionName: "getPair",
          args: [meme, token],
        });
        if (route === undefined && !/^0x0{40}$/.test(pair)) route = [meme, token];
      }
    }
    expect(route).toBeDefined();
    const balances = await Promise.all(
      chain.traders.map((trader) =>
        rpc.readContract({
          address: route![0],
          abi: devnetTokenAbi,
          functionName: "balanceOf",
          args: [trader as Address],
        }),
      ),
    );
    const trader = chain.traders[balances.findIndex((balance) => balance > 10n ** 18n)] as Address;
    const wallet = createWalletClient({ account: trader, transport: http(chain.rpcUrl, { retryCount: 0 }) });
    const send = (to: Address, data: `0x${string}`) =>
      wallet.sendTransaction({ chain: null, to, data, gas: 1_000_000n });
    await rpc.waitForTransactionReceipt({
      hash: await send(
        route![0],
        encodeFunctionData({ abi: devnetTokenAbi, functionName: "approve", args: [fork.router, maxUint256] }),
      ),
    });
    const since = proxy.seen.length;
    const hash = await send(
      fork.router,
      encodeFunctionData({
        abi: uniswapV2RouterAbi,
        functionName: "swapExactTokensForTokens",
        args: [10n ** 15n, 0n, route!, trader, 2n ** 40n],
      }),
    );
    const { blockNumber, status, logs } = await rpc.waitForTransactionReceipt({ hash });
    expect(status).toBe("success");
    const block = await rpc.getBlock({ blockNumber });
    expect(logs.some((log) => log.topics[0] === toEventSelector(swapEventAbi))).toBe(true);
    expect(block.transactions).toHaveLength(1);
    await waitFor(() => (run.indexing.views.status(config.name).indexedBlock ?? 0n) >= blockNumber, 60_000);
    const seen = proxy.seen.slice(since);
    // The foreign swap's block was read (its range), but never again by hash or by receipts.
    expect(seen.some((call) => call.method === "eth_getLogs" && getLogsSpan(call.params) > 0)).toBe(true);
    expect(seen.filter((call) => call.method === "eth_getBlockReceipts")).toEqual([]);
    expect(
      seen.filter(
        (call) => call.method === "eth_getLogs" && (call.params[0] as { blockHash?: string }).blockHash,
      ),
    ).toEqual([]);
  }, 120_000);
});
