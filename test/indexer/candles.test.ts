import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import type { Address, Hash, Trade } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getTokenPriceUsd } from "../../src/pricing/getTokenPriceUsd.js";
import type { Store } from "../../src/store/types.js";
import { revert, sendSwap, snapshot, startTestDevnet } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { pricingParamsOf } from "../support/pricingParams.js";
import { expectCandlesEqualRecompute, recomputeCandles, seriesOf } from "../support/recomputeCandles.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

const silent = { info() {}, warn() {}, error() {} };
const pairEvents = parseAbi([
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
]);
const NOW = Math.floor(Date.now() / 1000);

let devnet: Devnet;
let config: NetworkConfig;

const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });

beforeAll(async () => {
  // V2 pools only: the independent recompute below rebuilds prices from V2 Sync logs and hops
  // from V2 Swap logs (the demo's V3 pools would need the tick math there too).
  devnet = await startTestDevnet({ seed: 23, v3: false });
  // From block 0 and a window far wider than the week: every trade and every Sync of the chain is
  // indexed and kept, so the stored trades are the whole chain's and nothing is pruned.
  config = { ...devnet.networks[0]!, pollIntervalMs: 100, startBlock: 0n, windowDays: 60 };
});

afterAll(async () => {
  await devnet?.stop();
});

/** Pools with their Sync and Swap logs from the chain itself (eth_getLogs), ascending by position. */
async function readPoolLogs(pools: readonly Address[]) {
  const logs = await clientOf().getLogs({
    address: [...pools],
    events: pairEvents,
    fromBlock: 0n,
    toBlock: "latest",
  });
  return logs.map((log) => ({ ...log, address: log.address.toLowerCase() as Address }));
}

/**
 * Checks every stored trade's marks against the chain and the pricing rules, independently of the
 * indexer: the pool graph is rebuilt from the chain's Sync logs and each side's price is
 * getTokenPriceUsd over it right after the trade's transaction; each hop is its pool's Swap log.
 */
async function expectMarksFollowChainAndRules(store: Store, trades: readonly Trade[]): Promise<void> {
  const pairs = await store.listPairs(config.name);
  const params = await pricingParamsOf(config, store);
  const byAddress = new Map(pairs.map((pair) => [pair.address, pair]));
  const index = createPoolIndex();
  const logs = await readPoolLogs(pairs.map((pair) => pair.address));
  const syncs = logs.filter((log) => log.eventName === "Sync");
  const swapsByTx = new Map<Hash, typeof logs>();
  for (const log of logs) {
    if (log.eventName !== "Swap") continue;
    const hash = log.transactionHash.toLowerCase() as Hash;
    swapsByTx.set(hash, [...(swapsByTx.get(hash) ?? []), log]);
  }
  let next = 0;
  let priced = 0;
  for (const trade of trades) {
    // Every Sync up to the end of the trade's transaction.
    for (; next < syncs.length; next++) {
      const sync = syncs[next]!;
      const after =
        sync.blockNumber > trade.blockNumber ||
        (sync.blockNumber === trade.blockNumber && sync.transactionIndex > trade.txIndex);
      if (after) break;
      if (sync.eventName !== "Sync") continue;
      index.update({
        ...byAddress.get(sync.address)!,
        reserve0: sync.args.reserve0!,
        reserve1: sync.args.reserve1!,
      });
    }
    const marks = trade.marks!;
    const token = (ref: string) => (ref === "" ? config.native.wrapped : (ref as Address));
    expect(marks.priceInUsd, trade.txHash).toBe(getTokenPriceUsd(index, params, token(trade.tokenIn)));
    expect(marks.priceOutUsd, trade.txHash).toBe(getTokenPriceUsd(index, params, token(trade.tokenOut)));
    expect(marks.native).toBe(
      trade.tokenIn === "" || trade.tokenOut === "" ? config.native.wrapped : undefined,
    );
    if (marks.priceInUsd !== undefined && marks.priceOutUsd !== undefined) priced++;
    const swaps = (swapsByTx.get(trade.txHash) ?? [])
      .filter((log) => log.logIndex >= trade.logIndex)
      .slice(0, trade.pools.length);
    expect(swaps.map((log) => log.address)).toEqual(trade.pools);
    expect(marks.hops).toEqual(
      swaps.map((log) => {
        if (log.eventName !== "Swap") throw new Error("not a Swap log");
        const [amount0In, amount1In, amount0Out, amount1Out] = [
          log.args.amount0In!,
          log.args.amount1In!,
          log.args.amount0Out!,
          log.args.amount1Out!,
        ];
        const zeroForOne = amount0In - amount0Out > amount1In - amount1Out;
        return zeroForOne
          ? { zeroForOne, amountIn: amount0In, amountOut: amount1Out }
          : { zeroForOne, amountIn: amount1In, amountOut: amount0Out };
      }),
    );
  }
  expect(priced).toBeGreaterThan(trades.length / 2);
}

async function runUntilReady(indexing: Indexing): Promise<void> {
  indexing.start();
  await waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: config.rpcUrls[0]! } });
}

describe.each(createTestStores())("candles on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent, now: () => NOW });
    await runUntilReady(indexing);
  });

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  test("behavior: every candle of every token and pool equals a recompute from the stored trades", async () => {
    const trades = await listAllTrades(store, config.name, 0);
    expect(trades.length).toBeGreaterThan(300);
    for (const trade of trades) expect(trade.marks?.hops).toHaveLength(trade.pools.length);
    // Read through the reader the API uses.
    const compared = await expectCandlesEqualRecompute(indexing.views, config.name, trades);
    expect(compared).toBeGreaterThan(1_000);
    // Not vacuous: the week spans days, native and multi-hop trades are in, untracked ones too.
    const candles = recomputeCandles(trades);
    expect(candles.get(`token:${config.native.wrapped}:86400`)!.length).toBeGreaterThanOrEqual(7);
    expect(trades.some((t) => t.pools.length > 1)).toBe(true);
    expect(trades.some((t) => t.tokenIn === "" || t.tokenOut === "")).toBe(true);
    expect(trades.some((t) => !t.tracked)).toBe(true);
  });

  test("behavior: each trade's candle prices are the pricing rules' after its transaction, its hops its pools' Swap logs", async () => {
    await expectMarksFollowChainAndRules(store, await listAllTrades(store, config.name, 0));
  });

  test("behavior: a reorg leaves the candles equal to a recompute from the new chain's trades", async () => {
    const chain = devnet.chains[0]!;
    const before = (await listAllTrades(store, config.name, 0)).length;
    const id = await snapshot(chain.rpcUrl);
    const base = await clientOf().getBlockNumber({ cacheTime: 0 });
    // A large sale of the native coin: a deep low in the wrapped token's candles.
    const orphaned = [
      await sendSwap(chain, { path: ["", "USDT"], amountIn: 200n * 10n ** 18n, trader: chain.traders[1]! }),
    ].map((hash) => hash.toLowerCase());
    await waitFor(async () => (await store.getCheckpoint(config.name))?.blockNumber === base + 1n, 30_000);
    const withOrphan = await listAllTrades(store, config.name, 0);
    expect(withOrphan.filter((t) => orphaned.includes(t.txHash))).toHaveLength(1);
    await expectCandlesEqualRecompute(indexing.views, config.name, withOrphan);

    await revert(chain.rpcUrl, id);
    const canonical = [
      await sendSwap(chain, { path: ["USDT", ""], amountIn: 300n * 10n ** 18n, trader: chain.traders[2]! }),
      await sendSwap(chain, { path: ["", "USDT"], amountIn: 10n ** 17n, trader: chain.traders[3]! }),
    ].map((hash) => hash.toLowerCase());
    await waitFor(async () => {
      const above = (await listAllTrades(store, config.name, 0)).filter((t) => t.blockNumber > base);
      return above.map((t) => t.txHash).join() === canonical.join();
    }, 30_000);
    const trades = await listAllTrades(store, config.name, 0);
    expect(trades).toHaveLength(before + 2);
    // The orphaned trade's series are checked too: none of its buckets may outlive it.
    await expectCandlesEqualRecompute(
      indexing.views,
      config.name,
      trades,
      seriesOf(withOrphan.filter((t) => orphaned.includes(t.txHash))),
    );
    await expectMarksFollowChainAndRules(store, trades);
  });
});
