import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  decodeFunctionData,
  type Hex,
  http,
  parseAbi,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { createPrng } from "../../src/devnet/createPrng.js";
import { DEVNET_PRESETS } from "../../src/devnet/devnetPresets.js";
import type { Devnet } from "../../src/devnet/startDevnet.js";
import { startDevnet } from "../../src/devnet/startDevnet.js";
import type { MarketReader } from "../../src/domain/market.js";
import type { Address, NetworkName, Trade } from "../../src/domain/types.js";
import { USD_SCALE } from "../../src/domain/types.js";
import { DeepReorgError } from "../../src/errors.js";
import { createSqliteStore } from "../../src/store/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { getLogsSpan, startFaultProxy } from "../chain/faultProxy.js";
import { sendSwap } from "../support/devnet.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";

const routerAbi = parseAbi([
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
]);
const eventsAbi = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);
const silent = { info() {}, warn() {}, error() {} };

type Expected = Pick<
  Trade,
  "txHash" | "blockNumber" | "sender" | "tokenIn" | "amountIn" | "tokenOut" | "amountOut"
>;

let devnet: Devnet;
let config: NetworkConfig;
let dataDir: string;
const NOW = Math.floor(Date.now() / 1000);

function clientOf(cfg: NetworkConfig) {
  return createPublicClient({ transport: http(cfg.rpcUrls[0]) });
}

/**
 * Derives the trades independently of the indexer: from each router transaction's calldata
 * (what the trader asked for) and its receipt's token transfers (what the trader got).
 */
async function deriveTrades(cfg: NetworkConfig, fromTimestamp: number): Promise<Expected[]> {
  const client = clientOf(cfg);
  const routers = new Set(cfg.dexes.map((dex) => dex.router));
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const out: Expected[] = [];
  for (let n = head; n >= 0n; n--) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    if (Number(block.timestamp) < fromTimestamp) break;
    for (const tx of block.transactions) {
      if (tx.to === null || !routers.has(tx.to.toLowerCase() as Address)) continue;
      let call: ReturnType<typeof decodeFunctionData<typeof routerAbi>>;
      try {
        call = decodeFunctionData({ abi: routerAbi, data: tx.input });
      } catch {
        continue;
      }
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      if (receipt.status !== "success") continue;
      const path = (call.args[call.functionName === "swapExactETHForTokens" ? 1 : 2] as Address[]).map(
        (a) => a.toLowerCase() as Address,
      );
      const recipient = (
        call.args[call.functionName === "swapExactETHForTokens" ? 2 : 3] as Address
      ).toLowerCase();
      const last = path[path.length - 1]!;
      let amountOut = 0n;
      for (const log of receipt.logs) {
        {
          const ev = decodeEventLogSafe(log);
          if (call.functionName === "swapExactTokensForETH") {
            if (ev?.eventName === "Withdrawal") amountOut += ev.args.wad as bigint;
          } else if (
            ev?.eventName === "Transfer" &&
            log.address.toLowerCase() === last &&
            (ev.args.to as string).toLowerCase() === recipient
          ) {
            amountOut += ev.args.value as bigint;
          }
        }
      }
      out.push({
        txHash: tx.hash,
        blockNumber: n,
        sender: tx.from.toLowerCase() as Address,
        tokenIn: call.functionName === "swapExactETHForTokens" ? "" : path[0]!,
        amountIn: call.functionName === "swapExactETHForTokens" ? tx.value : (call.args[0] as bigint),
        tokenOut: call.functionName === "swapExactTokensForETH" ? "" : last,
        amountOut,
      });
    }
  }
  return out.sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : a.blockNumber > b.blockNumber ? 1 : 0));
}

function decodeEventLogSafe(log: { data: Hex; topics: [Hex, ...Hex[]] | [] }) {
  try {
    return decodeEventLog({ abi: eventsAbi, data: log.data, topics: log.topics });
  } catch {
    return undefined;
  }
}

function project(trades: readonly Trade[]): Expected[] {
  return trades.map(({ txHash, blockNumber, sender, tokenIn, amountIn, tokenOut, amountOut }) => ({
    txHash,
    blockNumber,
    sender,
    tokenIn,
    amountIn,
    tokenOut,
    amountOut,
  }));
}

/** Every trade the reader lists, read page by page as the API does. */
async function listAll(reader: MarketReader, network: NetworkName, pageSize = 97): Promise<Trade[]> {
  const out: Trade[] = [];
  for (;;) {
    const last = out.at(-1);
    const page = await reader.listTrades(network, {
      fromTimestamp: 0,
      limit: pageSize,
      ...(last === undefined ? {} : { after: { blockNumber: last.blockNumber, txIndex: last.txIndex } }),
    });
    out.push(...page);
    if (page.length < pageSize) return out;
  }
}

/** The store's daily aggregates must equal a recompute from its trades. */
async function expectAggregatesMatchTrades(store: Store, network: NetworkName): Promise<void> {
  const trades = await store.listTrades(network, 0);
  const days = new Map<number, { volume: bigint; trades: number; untracked: number; senders: Set<string> }>();
  for (const t of trades) {
    const day = Math.floor(t.timestamp / 86_400);
    const agg = days.get(day) ?? { volume: 0n, trades: 0, untracked: 0, senders: new Set<string>() };
    agg.volume += t.volumeUsd;
    agg.trades++;
    if (!t.tracked) agg.untracked++;
    agg.senders.add(t.sender);
    days.set(day, agg);
  }
  const stored = await store.listDayAggregates(network, 0, 2 ** 31);
  expect(stored.length).toBe(days.size);
  for (const row of stored) {
    const want = days.get(row.day)!;
    expect(row).toEqual({
      day: row.day,
      volumeUsd: want.volume,
      tradeCount: want.trades,
      untrackedCount: want.untracked,
      traderCount: want.senders.size,
    });
  }
}

async function runUntilReady(indexing: Indexing, cfg: NetworkConfig, timeoutMs = 120_000): Promise<void> {
  indexing.start();
  const client = clientOf(cfg);
  await waitFor(async () => {
    const status = indexing.views.status(cfg.name);
    if (status.error?.includes("deeper")) throw new Error(status.error);
    const head = await client.getBlockNumber({ cacheTime: 0 });
    return status.ready && status.indexedBlock === head;
  }, timeoutMs);
}

/** Sends native-coin swaps from traders and mines them into one block. */
async function mineSwaps(
  cfg: NetworkConfig,
  traders: readonly Address[],
  amountsWei: readonly bigint[],
): Promise<Hex[]> {
  const wallet = createWalletClient({ transport: http(cfg.rpcUrls[0]) });
  const client = clientOf(cfg);
  const router = cfg.dexes[0]!.router!;
  const stable = cfg.stablecoins[0]!;
  const hashes: Hex[] = [];
  for (const [i, value] of amountsWei.entries()) {
    hashes.push(
      await wallet.writeContract({
        account: traders[i % traders.length]!,
        chain: null,
        address: router,
        abi: routerAbi,
        functionName: "swapExactETHForTokens",
        args: [0n, [cfg.native.wrapped, stable], traders[i % traders.length]!, BigInt(NOW + 10 * 86_400)],
        value,
        gas: 300_000n,
      }),
    );
  }
  await client.request({ method: "evm_mine" as never, params: [] as never });
  return hashes;
}

async function rpc(cfg: NetworkConfig, method: string, params: unknown[] = []): Promise<unknown> {
  return clientOf(cfg).request({ method: method as never, params: params as never });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-indexer-"));
  devnet = await startDevnet({
    networks: ["bsc"],
    swapsPerNetwork: 400,
    traders: 55,
    liveIntervalMs: 0,
    dataDir,
    seed: 7,
  });
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
});

afterAll(async () => {
  await devnet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe.each(createTestStores())("indexer on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent, now: () => NOW });
    await runUntilReady(indexing, config);
  });

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  test("behavior: indexed trades equal what the transactions and receipts say", async () => {
    const expected = await deriveTrades(config, NOW - 7 * 86_400);
    const stored = await store.listTrades(config.name, 0);
    expect(expected.length).toBeGreaterThan(300);
    expect(project(stored)).toEqual(expected);
    // The API's reader pages through the same trades, in the same order.
    expect(project(await listAll(indexing.views, config.name))).toEqual(expected);
  });

  test("behavior: a multi-hop transaction is one trade; native-coin sides show as native", async () => {
    const stored = await store.listTrades(config.name, 0);
    const multiHop = stored.filter((t) => t.pools.length >= 2);
    expect(multiHop.length).toBeGreaterThan(10);
    expect(new Set(stored.map((t) => t.txHash)).size).toBe(stored.length);
    expect(stored.some((t) => t.tokenIn === "")).toBe(true);
    expect(stored.some((t) => t.tokenOut === "")).toBe(true);
    expect(new Set(stored.map((t) => t.sender)).size).toBeGreaterThanOrEqual(50);
  });

  test("behavior: trades in the thin pool do not inflate volume", async () => {
    const chain = devnet.chains[0]!;
    const stored = await store.listTrades(config.name, 0);
    const thin = stored.filter((t) => t.pools.includes(chain.thinPool));
    expect(thin.length).toBeGreaterThan(0);
    // Every trade is valued within reach of the market prices the pools were seeded at.
    const preset = DEVNET_PRESETS.bsc;
    const market = new Map<string, { price: bigint; decimals: number }>();
    const usd = (price: string) => {
      const [whole = "0", frac = ""] = price.split(".");
      return BigInt(whole) * USD_SCALE + BigInt(frac.padEnd(18, "0"));
    };
    for (const spec of [...preset.tokens, ...preset.unlisted]) {
      const address = chain.tokens[spec.symbol] ?? chain.unlisted[spec.symbol];
      if (address !== undefined) market.set(address, { price: usd(spec.priceUsd), decimals: spec.decimals });
    }
    const native = { price: usd(preset.native.priceUsd), decimals: 18 };
    market.set(config.native.wrapped, native);
    market.set("", native);
    for (const trade of thin) {
      const side = market.get(trade.tokenIn)!;
      const fair = (trade.amountIn * side.price) / 10n ** BigInt(side.decimals);
      expect(trade.volumeUsd).toBeLessThanOrEqual(fair * 2n + USD_SCALE);
    }
    const total = stored.reduce((sum, t) => sum + t.volumeUsd, 0n);
    const fairTotal = stored.reduce((sum, t) => {
      const side = market.get(t.tokenIn);
      return side === undefined ? sum : sum + (t.amountIn * side.price) / 10n ** BigInt(side.decimals);
    }, 0n);
    expect(total).toBeLessThan((fairTotal * 3n) / 2n);
    expect(total).toBeGreaterThan(fairTotal / 2n);
  });

  test("behavior: daily volumes are the exact sums of the day's trades", async () => {
    const days = await indexing.views.listDailyVolumes(config.name, 7, NOW);
    const trades = await store.listTrades(config.name, 0);
    await expectAggregatesMatchTrades(store, config.name);
    expect(days).toHaveLength(7);
    for (const day of days) {
      const of = trades.filter((t) => new Date(t.timestamp * 1000).toISOString().startsWith(day.date));
      expect(day.volumeUsd).toBe(of.reduce((s, t) => s + t.volumeUsd, 0n));
      expect(day.traderCount).toBe(new Set(of.map((t) => t.sender)).size);
    }
    const oldest = days[days.length - 1]!.date;
    const shown = trades.filter((t) => new Date(t.timestamp * 1000).toISOString().slice(0, 10) >= oldest);
    expect(days.reduce((s, d) => s + d.tradeCount, 0)).toBe(shown.length);
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort().reverse());
    expect(days.filter((d) => d.volumeUsd > 0n).length).toBeGreaterThanOrEqual(6);
  });
});

describe("indexer restarts and reorgs", () => {
  test("behavior: a restart mid-backfill leaves no duplicate and no gap", async () => {
    const path = join(dataDir, "restart.sqlite");
    const small = { ...config, maxLogRange: 40 };
    const store = createSqliteStore({ path });
    await store.migrate();
    let stopAt: bigint | undefined;
    const stopped = new Promise<void>((resolve) => {
      const indexing = createIndexing({
        networks: [small],
        store,
        log: silent,
        now: () => NOW,
        onProgress: (p) => {
          stopAt ??= p.fromBlock + (p.headBlock - p.fromBlock) / 3n;
          if (p.indexedBlock >= stopAt) void indexing.stop().then(resolve);
        },
      });
      indexing.start();
    });
    await stopped;
    const partial = await store.getCheckpoint(config.name);
    const head = await clientOf(config).getBlockNumber({ cacheTime: 0 });
    expect(partial!.blockNumber).toBeLessThan(head);
    await store.close();

    const reopened = createSqliteStore({ path });
    await reopened.migrate();
    const second = createIndexing({ networks: [small], store: reopened, log: silent, now: () => NOW });
    await runUntilReady(second, small);
    await second.stop();
    const expected = await deriveTrades(config, NOW - 7 * 86_400);
    expect(project(await reopened.listTrades(config.name, 0))).toEqual(expected);
    await expectAggregatesMatchTrades(reopened, config.name);
    await reopened.close();
  });

  test("behavior: a dead first URL and a flaky, range-limited second one still give exactly the trades", async () => {
    const proxy = await startFaultProxy(config.rpcUrls[0]!);
    const prng = createPrng(17);
    proxy.rules.push(
      {
        match: ({ method, params }) => method === "eth_getLogs" && getLogsSpan(params) > 10,
        fault: { kind: "rpcError", code: -32005, message: "block range too large: at most 10 blocks" },
      },
      // One HTTP request in ten fails (seeded); one is rate-limited with Retry-After.
      { match: ({ index }) => index === 0 && prng.next() < 0.1, fault: { kind: "status", status: 503 } },
      {
        match: ({ index }) => index === 0,
        fault: { kind: "status", status: 429, headers: { "Retry-After": "1" } },
        times: 1,
      },
    );
    const flaky = { ...config, rpcUrls: ["http://127.0.0.1:9", proxy.url], maxLogRange: 200 };
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({
      networks: [flaky],
      store,
      log: silent,
      now: () => NOW,
    });
    try {
      await runUntilReady(indexing, config, 45_000);
      expect(project(await store.listTrades(config.name, 0))).toEqual(
        await deriveTrades(config, NOW - 7 * 86_400),
      );
      // The faults were really served: ranges were refused, requests failed and were retried.
      expect(proxy.seen.filter((r) => r.outcome === "rpcError").length).toBeGreaterThan(0);
      expect(proxy.seen.filter((r) => r.outcome === "status").length).toBeGreaterThan(3);
    } finally {
      await indexing.stop();
      await store.close();
      await proxy.close();
    }
  });

  test("behavior: an RPC that accepts and never answers marks the network degraded within a few polls; the data stays served", async () => {
    const proxy = await startFaultProxy(config.rpcUrls[0]!);
    const hanging = { ...config, rpcUrls: [proxy.url], rpc: { timeoutMs: 400, requestsPerSecond: 0 } };
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({ networks: [hanging], store, log: silent, now: () => NOW });
    try {
      await runUntilReady(indexing, config);
      expect(indexing.views.status(config.name).degraded).toBe(false);
      const before = await indexing.views.listDailyVolumes(config.name, 7, NOW);
      proxy.rules.push({ match: () => true, fault: { kind: "hang" } });
      // max(3 polls, the 400 ms timeout) of silence, then the next look at the status says so.
      await waitFor(() => indexing.views.status(config.name).degraded, 5_000, "degraded");
      const status = indexing.views.status(config.name);
      expect(status).toMatchObject({ ready: true, halted: false, degraded: true });
      // The status says why, before the hanging calls reach their deadline.
      expect(status.error).toMatch(/^No answer for the chain head for \d+ s\.$|^RPC unavailable/);
      expect(Date.now() - status.headCheckedAt!).toBeGreaterThanOrEqual(400);
      // What is indexed is still served, from the store.
      expect(await indexing.views.listDailyVolumes(config.name, 7, NOW)).toEqual(before);
      expect((await indexing.views.listTrades(config.name, { fromTimestamp: 0, limit: 5 })).length).toBe(5);
      // The RPC answers again: the network recovers on its own.
      proxy.rules.length = 0;
      await waitFor(() => !indexing.views.status(config.name).degraded, 15_000, "recovered");
    } finally {
      await indexing.stop();
      await store.close();
      await proxy.close();
    }
  });

  test("behavior: an RPC refusing connections for 30 s loses and duplicates nothing", async () => {
    const proxy = await startFaultProxy(config.rpcUrls[0]!);
    const refused = { ...config, rpcUrls: [proxy.url], rpc: { timeoutMs: 1_000, requestsPerSecond: 0 } };
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({ networks: [refused], store, log: silent, now: () => NOW });
    try {
      await runUntilReady(indexing, config);
      const outageStarted = Date.now();
      await proxy.close();
      // The chain goes on while the indexer cannot reach it.
      const traders = devnet.chains[0]!.traders;
      const mined = [
        ...(await mineSwaps(config, traders.slice(20, 22), [10n ** 16n, 2n * 10n ** 16n])),
        ...(await mineSwaps(config, traders.slice(22, 23), [3n * 10n ** 16n])),
      ].map((h) => h.toLowerCase());
      await waitFor(() => indexing.views.status(config.name).degraded, 10_000, "degraded");
      expect(indexing.views.status(config.name).ready).toBe(true);
      // The outage lasts 30 s: that is the scenario, not a wait for a condition.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - outageStarted))));
      await proxy.open();
      await waitFor(
        async () => {
          const stored = await store.listTrades(config.name, 0);
          return mined.every((hash) => stored.some((t) => t.txHash === hash));
        },
        30_000,
        "the outage's trades indexed",
      );
      expect(project(await store.listTrades(config.name, 0))).toEqual(
        await deriveTrades(config, NOW - 7 * 86_400),
      );
      await expectAggregatesMatchTrades(store, config.name);
      await waitFor(() => !indexing.views.status(config.name).degraded, 10_000, "recovered");
    } finally {
      await indexing.stop();
      await store.close();
      await proxy.close().catch(() => undefined);
    }
  }, 90_000);

  test("behavior: a token no indexed pool holds is discovered through the factories, then followed", async () => {
    const chain = devnet.chains[0]!;
    const moon = chain.unlisted.MOON! as Address;
    const head = await clientOf(config).getBlockNumber({ cacheTime: 0 });
    // The window starts after every trade: no Sync of MOON's pool is ever seen in the logs.
    const late = { ...config, startBlock: head + 1n };
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({ networks: [late], store, log: silent, now: () => NOW });
    try {
      await runUntilReady(indexing, late);
      const index = indexing.views.getPoolIndex(config.name);
      expect([...index.poolsOf(moon)]).toHaveLength(0);

      const token = await indexing.views.resolveTokenAddress(config.name, moon);
      expect(token).toEqual({ address: moon, name: "Moon Shot", symbol: "MOON", decimals: 18 });
      const pools = [...index.poolsOf(moon)];
      expect(pools.map((p) => p.address)).toEqual([
        chain.pools.find((p) => p.symbols.includes("MOON"))!.address,
      ]);
      const reserves = () =>
        clientOf(config).readContract({
          address: pools[0]!.address,
          abi: parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]),
          functionName: "getReserves",
        });
      const [r0, r1] = await reserves();
      expect([index.get(pools[0]!.address)!.reserve0, index.get(pools[0]!.address)!.reserve1]).toEqual([
        r0,
        r1,
      ]);

      // From now on its swaps are indexed like any other pool's.
      const hash = (await sendSwap(chain, { path: ["", "MOON"], amountIn: 10n ** 17n })).toLowerCase();
      await waitFor(async () => (await store.listTrades(config.name, 0)).some((t) => t.txHash === hash));
      const [n0, n1] = await reserves();
      expect([index.get(pools[0]!.address)!.reserve0, index.get(pools[0]!.address)!.reserve1]).toEqual([
        n0,
        n1,
      ]);
      expect(n0).not.toBe(r0);
    } finally {
      await indexing.stop();
      await store.close();
    }
  });

  test("behavior: a reorg leaves the store equal to the new canonical chain", async () => {
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({ networks: [config], store, log: silent, now: () => NOW });
    await runUntilReady(indexing, config);
    const traders = devnet.chains[0]!.traders;
    const snapshot = (await rpc(config, "evm_snapshot")) as string;
    const base = await clientOf(config).getBlockNumber({ cacheTime: 0 });
    const orphaned = [
      ...(await mineSwaps(config, traders.slice(0, 2), [10n ** 17n, 2n * 10n ** 17n])),
      ...(await mineSwaps(config, traders.slice(2, 3), [3n * 10n ** 17n])),
    ];
    await waitFor(async () => (await store.getCheckpoint(config.name))?.blockNumber === base + 2n, 30_000);
    expect(
      (await store.listTrades(config.name, 0)).filter((t) => t.blockNumber > base).map((t) => t.txHash),
    ).toEqual(orphaned);

    await rpc(config, "evm_revert", [snapshot]);
    const canonical = [
      ...(await mineSwaps(config, traders.slice(5, 6), [5n * 10n ** 17n])),
      ...(await mineSwaps(config, traders.slice(6, 8), [6n * 10n ** 17n, 7n * 10n ** 17n])),
      ...(await mineSwaps(config, traders.slice(8, 9), [8n * 10n ** 17n])),
    ];
    await waitFor(async () => (await store.getCheckpoint(config.name))?.blockNumber === base + 3n, 30_000);
    const after = (await store.listTrades(config.name, 0)).filter((t) => t.blockNumber > base);
    expect(after.map((t) => t.txHash)).toEqual(canonical);
    expect(after.map((t) => t.amountIn)).toEqual([5n, 6n, 7n, 8n].map((n) => n * 10n ** 17n));
    const listed = (await listAll(indexing.views, config.name)).filter((t) => t.blockNumber > base);
    expect(listed.map((t) => ({ ...t, seq: 0n }))).toEqual(after.map((t) => ({ ...t, seq: 0n })));
    // The rolled-back trades left the daily aggregates with them.
    await expectAggregatesMatchTrades(store, config.name);
    // The indexed result equals an independent reading of the new chain.
    expect(project(await store.listTrades(config.name, 0))).toEqual(
      await deriveTrades(config, NOW - 7 * 86_400),
    );
    await indexing.stop();
    await store.close();
  });

  test("error: a reorg deeper than the window stops the indexer with a clear error", async () => {
    const shallow = { ...config, finalityDepth: 2 };
    const store = createSqliteStore({ path: ":memory:" });
    await store.migrate();
    const indexing = createIndexing({ networks: [shallow], store, log: silent, now: () => NOW });
    await runUntilReady(indexing, shallow);
    const indexer = indexing.indexers.get(config.name)!;
    const traders = devnet.chains[0]!.traders;
    const snapshot = (await rpc(config, "evm_snapshot")) as string;
    const base = await clientOf(config).getBlockNumber({ cacheTime: 0 });
    for (let i = 0; i < 5; i++) await mineSwaps(config, traders.slice(i, i + 1), [10n ** 16n]);
    await waitFor(async () => (await store.getCheckpoint(config.name))?.blockNumber === base + 5n, 30_000);
    await rpc(config, "evm_revert", [snapshot]);
    for (let i = 0; i < 6; i++) await mineSwaps(config, traders.slice(10 + i, 11 + i), [2n * 10n ** 16n]);
    const run = indexer.run();
    await expect(run).rejects.toBeInstanceOf(DeepReorgError);
    await expect(run).rejects.toThrow(/deeper than the unfinalized window of 2 blocks/);
    expect(indexing.views.status(config.name).error).toMatch(/deeper than the unfinalized window/);
    expect(indexing.views.status(config.name).halted).toBe(true);
    // Nothing past the fork was committed from the new branch.
    expect((await store.getCheckpoint(config.name))!.blockNumber).toBe(base + 5n);
    await indexing.stop();
    await store.close();
  });
});
