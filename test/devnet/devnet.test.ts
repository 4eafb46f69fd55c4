import { readFile } from "node:fs/promises";
import { startAnvil } from "@swapgraph/devnet/anvil/startAnvil.js";
import { createPrng } from "@swapgraph/devnet/createPrng.js";
import { devnetTokenAbi, swapEvent, uniswapV2RouterAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pancakeV3SwapEvent, v3PoolAbi } from "@swapgraph/devnet/v3/v3Abis.js";
import {
  type Address,
  createPublicClient,
  type Hash,
  http,
  parseEther,
  parseUnits,
  toEventSelector,
  toFunctionSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/loadConfig.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { revert, sendSwap, snapshot, startTestDevnet } from "../support/devnet.js";

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;
let client: ReturnType<typeof makeClient>;

function makeClient(rpcUrl: string) {
  return createPublicClient({ cacheTime: 0, transport: http(rpcUrl, { batch: true, retryCount: 0 }) });
}

beforeAll(async () => {
  // Built here, never loaded from the run's cache: this file tests the builder (and live trading).
  devnet = await startTestDevnet({ seed: 7, cache: false });
  chain = devnet.chains[0] as DevnetChainInfo;
  config = devnet.networks[0] as NetworkConfig;
  client = makeClient(chain.rpcUrl);
});

afterAll(async () => {
  await devnet?.stop();
});

/** Swap logs of the history, grouped by transaction. */
async function historySwapsByTx(info: DevnetChainInfo): Promise<Map<Hash, number>> {
  const logs = await makeClient(info.rpcUrl).getLogs({
    event: swapEvent,
    fromBlock: info.history.fromBlock,
    toBlock: info.history.toBlock,
  });
  const byTx = new Map<Hash, number>();
  for (const log of logs) byTx.set(log.transactionHash, (byTx.get(log.transactionHash) ?? 0) + 1);
  return byTx;
}

async function quote(router: Address, amountIn: bigint, path: Address[]): Promise<bigint> {
  const amounts = await client.readContract({
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: "getAmountsOut",
    args: [amountIn, path],
  });
  return amounts.at(-1) as bigint;
}

describe("startDevnet", () => {
  test("args: the network config has the indexer's shape, lowercase addresses, and the manifest matches it", async () => {
    expect(config.name).toBe("bsc");
    expect(config.chainId).toBe(56);
    expect(config.rpcUrls).toEqual([chain.rpcUrl]);
    expect(config.native).toMatchObject({ name: "BNB", symbol: "BNB", decimals: 18, wrapped: chain.wrapped });
    // The third is the real-chain cases' DEX with PancakeSwap's 0.25% fee (its Uniswap fork is unconfigured).
    // Then PancakeSwap V3, whose pools carry their own fees.
    expect(config.dexes.map((d) => [d.name, d.kind, d.feeBps])).toEqual([
      ["pancakeswap-v2", "uniswap-v2", 30],
      ["biswap", "uniswap-v2", 30],
      ["pancake-fork", "uniswap-v2", 25],
      ["PancakeSwap V3", "pancakeswap-v3", 0],
    ]);
    expect(config.dexes.map((d) => d.factory)).not.toContain(chain.chainCases!.fork.factory);
    expect(config.minLiquidityUsd).toBe(10_000n * 10n ** 18n);
    expect(config.windowDays).toBe(7);
    const addresses = [
      config.native.wrapped,
      ...config.dexes.flatMap((d) => [d.factory, ...[d.router, d.deployer].filter((a) => a !== undefined)]),
      ...config.tokenList.tokens.map((t) => t.address),
      ...config.stablecoins,
      ...config.baseTokens,
    ];
    for (const address of addresses) expect(address).toMatch(/^0x[0-9a-f]{40}$/);

    const manifest = JSON.parse(await readFile(devnet.manifestPath, "utf8")) as {
      networks: Record<string, unknown>[];
    };
    expect(manifest.networks).toHaveLength(1);
    expect(manifest.networks[0]?.minLiquidityUsd).toBe("10000");
    // The manifest is a configuration file: loadConfig reads back exactly the devnet's config.
    const { config: loaded, demo } = loadConfig({}, ["--config", devnet.manifestPath]);
    expect(demo).toBe(false);
    expect(loaded.networks).toEqual([config]);
  });

  test("behavior: the token list holds the wrapped native and 8+ tokens, not the unlisted ones", () => {
    const symbols = config.tokenList.tokens.map((t) => t.symbol);
    expect(symbols).toContain("WBNB");
    expect(symbols.length).toBeGreaterThanOrEqual(9);
    expect(symbols).not.toContain("MOON");
    expect(symbols).not.toContain("RUG");
    expect(Object.keys(chain.unlisted).sort()).toEqual(["MOON", "RUG"]);
    const listed = new Set(config.tokenList.tokens.map((t) => t.address));
    for (const address of Object.values(chain.unlisted)) expect(listed.has(address)).toBe(false);
  });

  test("behavior: token names, symbols and decimals read back from the chain match the list", async () => {
    const entries = [
      ...config.tokenList.tokens,
      { address: chain.unlisted.MOON as string, name: "Moon Shot", symbol: "MOON", decimals: 18 },
      { address: chain.unlisted.RUG as string, name: "Rug Pull", symbol: "RUG", decimals: 9 },
    ];
    const read = await Promise.all(
      entries.map(async (t) => {
        const address = t.address as Address;
        const [name, symbol, decimals] = await Promise.all([
          client.readContract({ address, abi: devnetTokenAbi, functionName: "name" }),
          client.readContract({ address, abi: devnetTokenAbi, functionName: "symbol" }),
          client.readContract({ address, abi: devnetTokenAbi, functionName: "decimals" }),
        ]);
        return { name, symbol, decimals };
      }),
    );
    expect(read).toEqual(entries.map((t) => ({ name: t.name, symbol: t.symbol, decimals: t.decimals })));
    expect(read.find((t) => t.symbol === "WBNB")?.name).toBe("Wrapped BNB");
    expect(read.find((t) => t.symbol === "DOGE")?.decimals).toBe(8);
  });

  test("behavior: pool reserves imply the reference prices and the thin pool of an unlisted token is far off", async () => {
    const [pancake, biswap] = chain.dexes as [DevnetChainInfo["dexes"][0], DevnetChainInfo["dexes"][0]];
    const t = chain.tokens;
    // The reference walk ends at the preset's prices; arbitrage keeps pools within 0.3% (the fee)
    // of it, so one hop gives between the reference less two fees and the reference.
    expect(chain.referencePricesUsd.WBNB).toBe(parseEther("600"));
    const bnbInUsdt = await quote(pancake.router, parseEther("1"), [t.WBNB as Address, t.USDT as Address]);
    expect(Number(bnbInUsdt / 10n ** 15n) / 1000).toBeGreaterThan(596);
    expect(Number(bnbInUsdt / 10n ** 15n) / 1000).toBeLessThan(600.1);
    const btcInUsdt = await quote(pancake.router, parseEther("0.01"), [t.BTCB as Address, t.USDT as Address]);
    expect(Number(btcInUsdt / 10n ** 15n) / 1000).toBeGreaterThan(596);
    expect(Number(btcInUsdt / 10n ** 15n) / 1000).toBeLessThan(600.1);
    const dogeInBnb = await quote(pancake.router, parseUnits("1000", 8), [
      t.DOGE as Address,
      t.WBNB as Address,
    ]);
    expect(Number(dogeInBnb / 10n ** 12n) / 1e6).toBeGreaterThan(0.2485); // 150 USD at 600 USD/BNB
    expect(Number(dogeInBnb / 10n ** 12n) / 1e6).toBeLessThan(0.25003);
    // Both DEXes agree: no cross-DEX arbitrage is left.
    const bnbOnBiswap = await quote(biswap.router, parseEther("1"), [t.WBNB as Address, t.USDT as Address]);
    expect(Number(bnbOnBiswap) / Number(bnbInUsdt)).toBeGreaterThan(0.9938);
    expect(Number(bnbOnBiswap) / Number(bnbInUsdt)).toBeLessThan(1.0063);
    // MOON (unlisted) is ~0.002 USD in its WBNB pool; the thin biswap pool prices it around 0.2 USD.
    const moon = chain.unlisted.MOON as Address;
    const moonThin = await quote(biswap.router, parseEther("1"), [moon, t.USDT as Address]);
    const moonDeep = await quote(pancake.router, parseEther("1"), [
      moon,
      t.WBNB as Address,
      t.USDT as Address,
    ]);
    expect(moonThin).toBeGreaterThan(moonDeep * 30n);
    const thin = chain.pools.find((p) => p.thin);
    expect(thin?.address).toBe(chain.thinPool);
    expect(thin?.symbols).toEqual(["MOON", "USDT"]);
    expect(chain.pools.filter((p) => p.thin)).toHaveLength(1);
  });

  test("behavior: the history spans about 7 days ending now with 50+ distinct traders", async () => {
    const { history } = chain;
    const now = Math.floor(Date.now() / 1000);
    expect(history.trades).toBe(300);
    expect(history.toTimestamp).toBeGreaterThan(now - 600);
    expect(history.toTimestamp - history.fromTimestamp).toBeGreaterThan(6.5 * 86_400);
    const [first, last] = await Promise.all([
      client.getBlock({ blockNumber: history.fromBlock }),
      client.getBlock({ blockNumber: history.toBlock }),
    ]);
    expect(Number(first.timestamp)).toBe(history.fromTimestamp);
    expect(Number(last.timestamp)).toBe(history.toTimestamp);

    const byTx = await historySwapsByTx(chain);
    // Besides the traders' 300 trades: the arbitrageur's and the wash trader's, and the real-chain cases'.
    const cases = new Set<string>(Object.values(chain.chainCases?.txs ?? {}).flat());
    const own = [...byTx.keys()].filter((hash) => !cases.has(hash));
    expect(own).toHaveLength(300 + history.arbitrageTrades + history.washTrades);
    const all = await Promise.all(own.map((hash) => client.getTransaction({ hash })));
    const by = (account: string) => all.filter((tx) => tx.from.toLowerCase() === account);
    expect(by(chain.arbitrageur)).toHaveLength(history.arbitrageTrades);
    expect(by(chain.washTrader)).toHaveLength(history.washTrades);
    const txs = all.filter((tx) => chain.traders.includes(tx.from.toLowerCase() as Address));
    expect(txs).toHaveLength(300);
    const senders = new Set(txs.map((tx) => tx.from.toLowerCase()));
    expect(senders.size).toBeGreaterThanOrEqual(50);

    // Volume differs from day to day.
    const perDay = new Map<number, number>();
    const blocks = await Promise.all(
      [...new Set(txs.map((tx) => tx.blockNumber))].map((blockNumber) => client.getBlock({ blockNumber })),
    );
    const txCount = new Map(txs.map((tx) => [tx.blockNumber, 0]));
    for (const tx of txs) txCount.set(tx.blockNumber, (txCount.get(tx.blockNumber) ?? 0) + 1);
    for (const block of blocks) {
      const day = Math.floor((Number(block.timestamp) - history.fromTimestamp) / 86_400);
      perDay.set(day, (perDay.get(day) ?? 0) + (txCount.get(block.number) ?? 0));
    }
    const counts = [...perDay.values()];
    expect(Math.max(...counts)).toBeGreaterThan(Math.min(...counts) * 1.3);
  });

  test("behavior: the history has multi-hop swaps and native-coin swaps both ways on both DEXes", async () => {
    const byTx = await historySwapsByTx(chain);
    const multiHop = [...byTx.values()].filter((n) => n >= 2).length;
    expect(multiHop).toBeGreaterThanOrEqual(10);
    expect([...byTx.values()].some((n) => n >= 3)).toBe(true);

    const txs = await Promise.all([...byTx.keys()].map((hash) => client.getTransaction({ hash })));
    const routers = new Set(chain.dexes.map((d) => d.router));
    const selector = (name: "swapExactTokensForETH" | "swapExactETHForTokens" | "swapExactTokensForTokens") =>
      toFunctionSelector(uniswapV2RouterAbi.find((f) => f.type === "function" && f.name === name) as never);
    const nativeIn = txs.filter((tx) => tx.value > 0n && tx.to !== null && routers.has(tx.to));
    const nativeOut = txs.filter((tx) => tx.input.startsWith(selector("swapExactTokensForETH")));
    expect(nativeIn.length).toBeGreaterThanOrEqual(5);
    // Native coin in is swapExactETHForTokens, or its fee-on-transfer variant (the chain cases' tax token).
    const feeOnTransferIn = toFunctionSelector(
      "swapExactETHForTokensSupportingFeeOnTransferTokens(uint256,address[],address,uint256)",
    );
    expect(
      nativeIn.every(
        (tx) =>
          tx.input.startsWith(selector("swapExactETHForTokens")) || tx.input.startsWith(feeOnTransferIn),
      ),
    ).toBe(true);
    expect(nativeOut.length).toBeGreaterThanOrEqual(5);
    for (const router of routers) expect(txs.some((tx) => tx.to === router)).toBe(true);

    // Some trades went through the thin pool and through the unlisted tokens' pools.
    const thinLogs = await client.getLogs({
      address: chain.thinPool,
      event: swapEvent,
      fromBlock: chain.history.fromBlock,
      toBlock: chain.history.toBlock,
    });
    expect(thinLogs.length).toBeGreaterThan(0);
  });

  test("behavior: the same seed rebuilds the same swaps", async () => {
    const again = await startTestDevnet({ seed: 7, cache: false });
    try {
      const otherChain = again.chains[0] as DevnetChainInfo;
      expect(otherChain.tokens).toEqual(chain.tokens);
      expect(otherChain.traders).toEqual(chain.traders);
      const read = async (info: DevnetChainInfo) =>
        // The V2 pools' swaps and PancakeSwap V3's, positions coming and going included.
        (
          await makeClient(info.rpcUrl).getLogs({
            events: [swapEvent, pancakeV3SwapEvent, ...v3PoolAbi.filter((item) => item.type === "event")],
            fromBlock: info.history.fromBlock,
            toBlock: info.history.toBlock,
          })
        ).map((l) => [l.address, l.data, l.topics]);
      const logs = await read(chain);
      expect(
        logs.filter(([, , topics]) => topics?.[0] === toEventSelector(pancakeV3SwapEvent)).length,
      ).toBeGreaterThan(20);
      expect(await read(otherChain)).toEqual(logs);
    } finally {
      await again.stop();
    }
  });

  test("behavior: the test helpers send a swap and revert it", async () => {
    const id = await snapshot(chain.rpcUrl);
    const before = await client.getBlockNumber();
    const hash = await sendSwap(chain, { path: ["", "MOON"], amountIn: parseEther("0.1") });
    const receipt = await client.getTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.blockNumber).toBe(before + 1n);
    await revert(chain.rpcUrl, id);
    expect(await client.getBlockNumber()).toBe(before);
  });

  test("behavior: live trading mines new swaps at the current time until stopped", async () => {
    const head = await client.getBlockNumber();
    devnet.startLive(100);
    const deadline = Date.now() + 20_000;
    let logs: Awaited<ReturnType<typeof client.getLogs<typeof swapEvent>>> = [];
    while (logs.length === 0 && Date.now() < deadline) {
      const latest = await client.getBlockNumber();
      if (latest > head)
        logs = await client.getLogs({ event: swapEvent, fromBlock: head + 1n, toBlock: latest });
      if (logs.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    await devnet.stopLive();
    expect(logs.length).toBeGreaterThan(0);
    const block = await client.getBlock({ blockNumber: logs[0]?.blockNumber as bigint });
    expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(60);
    // Once stopped, no more blocks come.
    const stoppedAt = await client.getBlockNumber();
    await new Promise((r) => setTimeout(r, 300));
    expect(await client.getBlockNumber()).toBe(stoppedAt);
  });

  test("error: anvil on a port in use fails with anvil's reason", async () => {
    await expect(startAnvil({ chainId: 56, port: Number(new URL(chain.rpcUrl).port) })).rejects.toThrow(
      /anvil: port \d+ on 127.0.0.1 is already in use/,
    );
  });

  test("behavior: stop() ends every anvil process", async () => {
    const pid = chain.pid;
    expect(() => process.kill(pid, 0)).not.toThrow();
    await devnet.stop();
    expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    await devnet.stop();
  });
});

describe("createPrng", () => {
  test("args: the same seed gives the same sequence, another seed another one", () => {
    const draw = (seed: number) => {
      const prng = createPrng(seed);
      return Array.from({ length: 5 }, () => prng.next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const x of draw(1)) expect(x >= 0 && x < 1).toBe(true);
  });
});
