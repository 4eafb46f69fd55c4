import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { swapEvent, uniswapV2RouterAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { buildDensePreset } from "@swapgraph/devnet/presets/buildDensePreset.js";
import { DEVNET_PRESETS } from "@swapgraph/devnet/presets/devnetPresets.js";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { createPublicClient, type Hash, http, toFunctionSelector } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/loadConfig.js";

const TRADES = 3000;
// More than one block's worth of funding (150 traders a block).
const TRADERS = 160;

let devnet: Devnet;
let chain: DevnetChainInfo;
let client: ReturnType<typeof makeClient>;

function makeClient(rpcUrl: string) {
  return createPublicClient({ cacheTime: 0, transport: http(rpcUrl, { batch: true, retryCount: 0 }) });
}

beforeAll(async () => {
  devnet = await startDevnet({
    profile: "dense",
    networks: ["bsc"],
    swapsPerNetwork: TRADES,
    traders: TRADERS,
    liveIntervalMs: 0,
    dataDir: mkdtempSync(join(tmpdir(), "swapgraph-dense-")),
  });
  chain = devnet.chains[0] as DevnetChainInfo;
  client = makeClient(chain.rpcUrl);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("buildDensePreset", () => {
  test("args: keeps each listed token's deepest pool per DEX, drops the thin pool and unlisted tokens", () => {
    const dense = buildDensePreset(DEVNET_PRESETS.bsc);
    const names = dense.pools.map((p) => `${p.dex}:${p.a}/${p.b}`);
    expect(names).toEqual([
      "0:WBNB/USDT",
      "0:WBNB/BUSD",
      "0:WBNB/USDC",
      "0:BTCB/WBNB",
      "0:ETH/WBNB",
      "0:CAKE/WBNB",
      "0:DOGE/WBNB",
      "0:XRP/WBNB",
      "0:ADA/WBNB",
      "1:WBNB/USDT",
      "1:BTCB/USDT",
      "1:ETH/WBNB",
      "1:USDT/USDC",
      "1:WBNB/BUSD",
      "1:DOGE/USDT",
      "1:XRP/USDT",
    ]);
    expect(dense.unlisted).toEqual([]);
    expect(dense.tokens).toEqual(DEVNET_PRESETS.bsc.tokens);
    // Every listed token still has a pool on some DEX.
    for (const token of DEVNET_PRESETS.bsc.tokens)
      expect(dense.pools.some((p) => p.a === token.symbol || p.b === token.symbol)).toBe(true);
  });

  test("args: pools one keeps only the deepest pair", () => {
    expect(buildDensePreset(DEVNET_PRESETS.eth, "one").pools).toEqual([
      { dex: 0, a: "WETH", b: "USDC", tvlUsd: 40_000_000n },
    ]);
  });
});

describe("startDevnet profile dense", () => {
  test("behavior: packs the trades into full blocks within one day ending now", async () => {
    const { history } = chain;
    expect(history.trades).toBe(TRADES);
    expect(history.blocks).toBeLessThanOrEqual(TRADES / 50);
    expect(history.toTimestamp - history.fromTimestamp).toBeLessThanOrEqual(86_400);
    expect(history.toTimestamp).toBeGreaterThan(Date.now() / 1000 - 600);

    const logs = await client.getLogs({
      event: swapEvent,
      fromBlock: history.fromBlock,
      toBlock: history.toBlock,
    });
    const byTx = new Map<Hash, number>();
    const txsByBlock = new Map<bigint, Set<Hash>>();
    for (const log of logs) {
      byTx.set(log.transactionHash, (byTx.get(log.transactionHash) ?? 0) + 1);
      const set = txsByBlock.get(log.blockNumber) ?? new Set<Hash>();
      set.add(log.transactionHash);
      txsByBlock.set(log.blockNumber, set);
    }
    // The traders' trades and the arbitrage that follows them (no wash pool in the dense market).
    expect(history.arbitrageTrades).toBeGreaterThan(0);
    expect(history.washTrades).toBe(0);
    expect(byTx.size).toBe(TRADES + history.arbitrageTrades);
    expect(TRADES / txsByBlock.size).toBeGreaterThanOrEqual(50);
    // Only the main pairs traded: no thin pool, no unlisted token.
    expect(chain.pools).toHaveLength(16);
    expect(chain.pools.some((p) => p.thin)).toBe(false);
    expect(chain.unlisted).toEqual({});
    const pools = new Set(chain.pools.map((p) => p.address));
    for (const log of logs) expect(pools.has(log.address.toLowerCase() as never)).toBe(true);
    expect([...byTx.values()].filter((n) => n >= 2).length).toBeGreaterThan(TRADES / 10);
  });

  test("behavior: swaps are real router calls: direct, multi-hop and native both ways, by many traders on both DEXes", async () => {
    const { fromBlock } = chain.history;
    const blocks = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        client.getBlock({ blockNumber: fromBlock + BigInt(i), includeTransactions: true }),
      ),
    );
    const txs = blocks.flatMap((b) => b.transactions);
    const routers = new Set(chain.dexes.map((d) => d.router));
    const selector = (name: "swapExactTokensForETH" | "swapExactETHForTokens" | "swapExactTokensForTokens") =>
      toFunctionSelector(uniswapV2RouterAbi.find((f) => f.type === "function" && f.name === name) as never);
    const swaps = txs.filter((tx) => tx.to !== null && routers.has(tx.to));
    expect(swaps.some((tx) => tx.input.startsWith(selector("swapExactETHForTokens")))).toBe(true);
    expect(swaps.some((tx) => tx.input.startsWith(selector("swapExactTokensForETH")))).toBe(true);
    expect(swaps.some((tx) => tx.input.startsWith(selector("swapExactTokensForTokens")))).toBe(true);
    for (const router of routers) expect(swaps.some((tx) => tx.to === router)).toBe(true);
    expect(new Set(swaps.map((tx) => tx.from.toLowerCase())).size).toBeGreaterThanOrEqual(100);
  });

  test("args: the manifest is a configuration file with a one-day window", () => {
    const { config } = loadConfig({}, ["--config", devnet.manifestPath]);
    expect(config.networks).toEqual(devnet.networks);
    expect(config.networks[0]?.windowDays).toBe(1);
    expect(config.networks[0]?.dexes).toHaveLength(2);
    expect(config.networks[0]?.tokenList.tokens.map((t) => t.symbol)).not.toContain("MOON");
  });

  test("error: an unknown profile is refused", async () => {
    await expect(startDevnet({ profile: "sparse" as never })).rejects.toThrow(
      "startDevnet: unknown profile sparse",
    );
  });
});
