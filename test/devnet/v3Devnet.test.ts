import { swapEvent, uniswapV2PairAbi } from "@swapgraph/devnet/deploy/devnetAbis.js";
import { readArtifact } from "@swapgraph/devnet/deploy/readArtifact.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import type { DevnetV3Info } from "@swapgraph/devnet/v3/startV3Market.js";
import {
  devnetV3RouterAbi,
  pancakeV3SwapEvent,
  quoterV2Abi,
  uniswapV3SwapEvent,
  v3FactoryAbi,
  v3PoolAbi,
} from "@swapgraph/devnet/v3/v3Abis.js";
import {
  type Address,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  encodePacked,
  http,
  parseAbi,
  parseEther,
  toEventSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { revert, snapshot, startTestDevnet } from "../support/devnet.js";

let devnet: Devnet;

const erc20Abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function decimals() view returns (uint8)",
]);
const initializeEvent = parseAbi(["event Initialize(uint160 sqrtPriceX96, int24 tick)"])[0];
const mintEvent = v3PoolAbi.find((item) => item.type === "event" && item.name === "Mint") as Extract<
  (typeof v3PoolAbi)[number],
  { type: "event"; name: "Mint" }
>;
const burnEvent = v3PoolAbi.find((item) => item.type === "event" && item.name === "Burn") as Extract<
  (typeof v3PoolAbi)[number],
  { type: "event"; name: "Burn" }
>;
const FEE_TIERS = { bsc: [500, 2500, 10000], eth: [500, 3000, 10000], polygon: [500, 3000, 10000] };
const MAIN_PAIR = { bsc: ["WBNB", "USDT"], eth: ["WETH", "USDC"], polygon: ["WPOL", "USDC"] } as const;

function client(chain: DevnetChainInfo) {
  return createPublicClient({ cacheTime: 0, transport: http(chain.rpcUrl, { batch: true, retryCount: 0 }) });
}

function v3Of(chain: DevnetChainInfo): DevnetV3Info {
  if (chain.v3 === undefined) throw new Error(`${chain.network} has no V3 DEX`);
  return chain.v3;
}

/** The chain's main-pair V3 pool at its lowest fee tier. */
function mainPool(chain: DevnetChainInfo): DevnetV3Info["pools"][number] {
  const [a, b] = MAIN_PAIR[chain.network];
  const pool = v3Of(chain)
    .pools.filter((p) => p.symbols.includes(a) && p.symbols.includes(b))
    .sort((x, y) => x.fee - y.fee)[0];
  if (pool === undefined) throw new Error(`${chain.network}: no ${a}/${b} V3 pool`);
  return pool;
}

/** token1 per token0 (smallest units) from a sqrt price, as a float. */
function priceOfSqrt(sqrtPriceX96: bigint): number {
  const sqrt = Number(sqrtPriceX96) / 2 ** 96;
  return sqrt * sqrt;
}

beforeAll(async () => {
  devnet = await startTestDevnet({ networks: ["bsc", "eth", "polygon"], seed: 11, cache: false });
});

afterAll(async () => {
  await devnet?.stop();
});

describe("V3 DEXes on the devnet", () => {
  test("args: each network's config lists its V3 DEX (PancakeSwap V3 with its deployer on bsc)", () => {
    for (const [i, chain] of devnet.chains.entries()) {
      const config = devnet.networks[i] as NetworkConfig;
      const v3 = v3Of(chain);
      const dex = config.dexes.find((d) => d.kind !== "uniswap-v2");
      if (chain.network === "bsc") {
        expect(dex).toEqual({
          name: "PancakeSwap V3",
          kind: "pancakeswap-v3",
          factory: v3.factory,
          deployer: v3.deployer,
          feeBps: 0,
        });
        expect(v3.deployer).toMatch(/^0x[0-9a-f]{40}$/);
      } else {
        expect(dex).toEqual({ name: "Uniswap V3", kind: "uniswap-v3", factory: v3.factory, feeBps: 0 });
        expect(v3.swapRouter).toMatch(/^0x[0-9a-f]{40}$/);
      }
    }
  });

  test("behavior: the factory's PoolCreated logs are the devnet's V3 pools, at the network's fee tiers", async () => {
    for (const chain of devnet.chains) {
      const v3 = v3Of(chain);
      const logs = await client(chain).getLogs({
        address: v3.factory,
        event: v3FactoryAbi[3],
        fromBlock: 0n,
        toBlock: "latest",
      });
      const created = logs.map((l) => ({
        address: l.args.pool?.toLowerCase(),
        fee: l.args.fee,
        tickSpacing: l.args.tickSpacing,
      }));
      expect(created).toEqual(
        v3.pools.map((p) => ({ address: p.address, fee: p.fee, tickSpacing: p.tickSpacing })),
      );
      expect([...new Set(created.map((c) => c.fee))].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        FEE_TIERS[chain.network],
      );
      // The main pair at two tiers, the thin pool of an unlisted token.
      const [a, b] = MAIN_PAIR[chain.network];
      expect(v3.pools.filter((p) => p.symbols.includes(a) && p.symbols.includes(b)).length).toBe(2);
      const thin = v3.pools.filter((p) => p.thin);
      expect(thin).toHaveLength(1);
      expect(Object.values(chain.unlisted)).toContain(
        thin[0]?.symbols[0] === "MOON" ? thin[0].token0 : thin[0]?.token1,
      );
    }
  });

  test("behavior: positions sit in several ranges and owners: ticks initialized on both sides of the price, some out of range, full range", async () => {
    for (const chain of devnet.chains) {
      const pool = mainPool(chain);
      const c = client(chain);
      const [, tick] = await c.readContract({ address: pool.address, abi: v3PoolAbi, functionName: "slot0" });
      const mints = await c.getLogs({
        address: pool.address,
        event: mintEvent,
        fromBlock: 0n,
        toBlock: "latest",
      });
      const ranges = mints.map((m) => [m.args.tickLower as number, m.args.tickUpper as number] as const);
      expect(ranges.length).toBeGreaterThanOrEqual(5);
      expect(ranges.some(([lower, upper]) => lower <= tick && tick < upper)).toBe(true);
      expect(ranges.some(([lower]) => lower > tick)).toBe(true);
      expect(ranges.some(([, upper]) => upper <= tick)).toBe(true);
      const lowest = Math.ceil(-887272 / pool.tickSpacing) * pool.tickSpacing;
      expect(ranges.some(([lower, upper]) => lower === lowest && upper === -lowest)).toBe(true);
      expect(new Set(mints.map((m) => m.args.owner)).size).toBeGreaterThanOrEqual(3);
      expect(
        await c.readContract({ address: pool.address, abi: v3PoolAbi, functionName: "liquidity" }),
      ).toBeGreaterThan(0n);
    }
  });

  test("behavior: the history has V3 swaps, some crossing ticks, and positions opened and closed", async () => {
    for (const chain of devnet.chains) {
      const v3 = v3Of(chain);
      const c = client(chain);
      const swapEvent = v3.kind === "pancakeswap-v3" ? pancakeV3SwapEvent : uniswapV3SwapEvent;
      const addresses = v3.pools.map((p) => p.address);
      const [swaps, inits, burns] = await Promise.all([
        c.getLogs({
          address: addresses,
          event: swapEvent,
          fromBlock: chain.history.fromBlock,
          toBlock: chain.history.toBlock,
        }),
        c.getLogs({ address: addresses, event: initializeEvent, fromBlock: 0n, toBlock: "latest" }),
        c.getLogs({
          address: addresses,
          event: burnEvent,
          fromBlock: chain.history.fromBlock,
          toBlock: chain.history.toBlock,
        }),
      ]);
      expect(swaps.length).toBeGreaterThan(20);
      // A trader's swap emits one Swap per pool; the arbitrage's add theirs.
      expect(swaps.length).toBeGreaterThanOrEqual(v3.history.singleSwaps + 2 * v3.history.multiHopSwaps);
      expect(v3.history.multiHopSwaps).toBeGreaterThan(0);
      expect(v3.history.mints).toBeGreaterThan(0);
      expect(v3.history.burns).toBeGreaterThan(0);
      expect(burns.length).toBeGreaterThan(0);
      // Ticks move past more than one spacing in one swap: initialized ticks were crossed.
      const tickOf = new Map(inits.map((l) => [l.address.toLowerCase(), l.args.tick as number]));
      const spacing = new Map(v3.pools.map((p) => [p.address, p.tickSpacing]));
      let crossing = 0;
      for (const log of swaps) {
        const address = log.address.toLowerCase() as Address;
        const before = tickOf.get(address) as number;
        const after = log.args.tick as number;
        if (Math.abs(after - before) > (spacing.get(address) as number)) crossing++;
        tickOf.set(address, after);
      }
      expect(crossing).toBeGreaterThan(0);
    }
  });

  test("behavior: the quoter's answer is what a real swap then pays out", async () => {
    for (const chain of devnet.chains) {
      const v3 = v3Of(chain);
      const pool = mainPool(chain);
      const c = client(chain);
      const trader = chain.traders[0] as Address;
      const id = await snapshot(chain.rpcUrl);
      try {
        // One native coin, or 1,000 of a stablecoin.
        const decimals = await c.readContract({
          address: pool.token0,
          abi: erc20Abi,
          functionName: "decimals",
        });
        const amountIn =
          pool.symbols[0] === MAIN_PAIR[chain.network][0] ? parseEther("1") : 1000n * 10n ** BigInt(decimals);
        const { result } = await c.simulateContract({
          address: v3.quoter,
          abi: quoterV2Abi,
          functionName: "quoteExactInputSingle",
          args: [
            { tokenIn: pool.token0, tokenOut: pool.token1, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n },
          ],
        });
        const [quoted] = result;
        expect(quoted).toBeGreaterThan(0n);
        const before = await c.readContract({
          address: pool.token1,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [trader],
        });
        const hash = await c.request({
          method: "eth_sendTransaction",
          params: [
            {
              from: trader,
              to: v3.router,
              gas: "0x2dc6c0",
              data: encodeFunctionData({
                abi: devnetV3RouterAbi,
                functionName: "exactInputSingle",
                args: [pool.address, true, amountIn, 0n, trader, 0n],
              }),
            },
          ],
        } as never);
        await c.request({ method: "evm_mine", params: [] } as never);
        expect((await c.getTransactionReceipt({ hash: hash as `0x${string}` })).status).toBe("success");
        const after = await c.readContract({
          address: pool.token1,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [trader],
        });
        expect(after - before).toBe(quoted);
      } finally {
        await revert(chain.rpcUrl, id);
      }
    }
  });

  test("behavior: the thin V3 pool holds a few dollars at a price far off its token's market, and is traded", async () => {
    for (const chain of devnet.chains) {
      const v3 = v3Of(chain);
      const pool = v3.pools.find((p) => p.thin);
      if (pool === undefined) throw new Error(`${chain.network}: no thin V3 pool`);
      expect(pool.tvlUsd).toBeLessThan(100n);
      expect(v3.history.thinSwaps).toBeGreaterThan(0);
      const c = client(chain);
      const [sqrtPriceX96] = await c.readContract({
        address: pool.address,
        abi: v3PoolAbi,
        functionName: "slot0",
      });
      // MOON trades at 0.002 USD on the market, at about 0.2 here (a stablecoin's units per MOON unit).
      const [moon, stable] =
        pool.symbols[0] === "MOON" ? [pool.token0, pool.token1] : [pool.token1, pool.token0];
      const [moonDecimals, stableDecimals] = await Promise.all(
        [moon, stable].map((address) => c.readContract({ address, abi: erc20Abi, functionName: "decimals" })),
      );
      const raw = priceOfSqrt(sqrtPriceX96);
      const stablePerMoon =
        (pool.symbols[0] === "MOON" ? raw : 1 / raw) * 10 ** ((moonDecimals ?? 0) - (stableDecimals ?? 0));
      expect(stablePerMoon).toBeGreaterThan(0.05);
    }
  });

  test("behavior: the chain cases route trades through a V2 pool then a V3 pool in one transaction", async () => {
    for (const chain of devnet.chains) {
      const v3 = v3Of(chain);
      const hashes = chain.chainCases?.txs.aggregatorV3 ?? [];
      expect(hashes.length).toBeGreaterThan(5);
      const v3Swap = toEventSelector(v3.kind === "pancakeswap-v3" ? pancakeV3SwapEvent : uniswapV3SwapEvent);
      const v2Swap = toEventSelector(swapEvent);
      const pools = new Set(v3.pools.map((p) => p.address));
      const v2Pools = new Set(chain.pools.map((p) => p.address));
      for (const hash of hashes.slice(0, 3)) {
        const receipt = await client(chain).getTransactionReceipt({ hash });
        const swaps = receipt.logs.filter((l) => l.topics[0] === v2Swap || l.topics[0] === v3Swap);
        // The V2 pool's Swap first, then the V3 pool's.
        expect(swaps.map((l) => l.topics[0])).toEqual([v2Swap, v3Swap]);
        expect(v2Pools.has(swaps[0]?.address.toLowerCase() as Address)).toBe(true);
        expect(pools.has(swaps[1]?.address.toLowerCase() as Address)).toBe(true);
      }
    }
  });

  test("behavior: DevnetV3Quoter answers what Uniswap's QuoterV2 answers, ticks crossed included, on one pool and along a path", async () => {
    const chain = devnet.chains.find((c) => c.network === "eth") as DevnetChainInfo;
    const v3 = v3Of(chain);
    const c = client(chain);
    const id = await snapshot(chain.rpcUrl);
    try {
      const hash = (await c.request({
        method: "eth_sendTransaction",
        params: [
          {
            from: chain.deployer,
            gas: "0x3d0900",
            data: encodeDeployData({
              abi: parseAbi(["constructor(address factory_)"]),
              bytecode: readArtifact("DevnetV3Quoter").bytecode,
              args: [v3.factory],
            }),
          },
        ],
      } as never)) as `0x${string}`;
      await c.request({ method: "evm_mine", params: [] } as never);
      const ours = (await c.getTransactionReceipt({ hash })).contractAddress as Address;
      const pool = mainPool(chain);
      const wrapped = pool.symbols[0] === "WETH" ? pool.token0 : pool.token1;
      const usdc = pool.symbols[0] === "WETH" ? pool.token1 : pool.token0;
      // Small, then big enough to cross the narrow positions' ticks, both ways.
      const cases = [
        { tokenIn: wrapped, tokenOut: usdc, amountIn: parseEther("0.5") },
        { tokenIn: wrapped, tokenOut: usdc, amountIn: parseEther("400") },
        { tokenIn: usdc, tokenOut: wrapped, amountIn: 900_000n * 10n ** 6n },
      ];
      let crossed = 0;
      for (const q of cases) {
        const args = [{ ...q, fee: pool.fee, sqrtPriceLimitX96: 0n }] as const;
        const [official, devnetAnswer] = await Promise.all(
          [v3.quoter, ours].map(async (address) => {
            const { result } = await c.simulateContract({
              address,
              abi: quoterV2Abi,
              functionName: "quoteExactInputSingle",
              args,
            });
            return result.slice(0, 3);
          }),
        );
        expect(devnetAnswer).toEqual(official);
        crossed += Number(official?.[2] ?? 0);
      }
      expect(crossed).toBeGreaterThan(0);
      const wbtcPool = v3.pools.find((p) => p.symbols.includes("WBTC")) as DevnetV3Info["pools"][number];
      const wbtc = wbtcPool.token0 === wrapped ? wbtcPool.token1 : wbtcPool.token0;
      const path = encodePacked(
        ["address", "uint24", "address", "uint24", "address"],
        [usdc, pool.fee, wrapped, wbtcPool.fee, wbtc],
      );
      const [official, devnetAnswer] = await Promise.all(
        [v3.quoter, ours].map(async (address) => {
          const { result } = await c.simulateContract({
            address,
            abi: quoterV2Abi,
            functionName: "quoteExactInput",
            args: [path, 25_000n * 10n ** 6n],
          });
          return result.slice(0, 3);
        }),
      );
      expect(devnetAnswer).toEqual(official);
    } finally {
      await revert(chain.rpcUrl, id);
    }
  });

  test("behavior: at the end of the history the main pair's V3 and V2 prices agree within 1%", async () => {
    for (const chain of devnet.chains) {
      const pool = mainPool(chain);
      const v2 = chain.pools.find(
        (p) => p.dex === chain.dexes[0]?.name && pool.symbols.every((s) => p.symbols.includes(s)),
      );
      if (v2 === undefined) throw new Error(`${chain.network}: no V2 main pool`);
      const c = client(chain);
      const at = chain.history.toBlock;
      const [[sqrtPriceX96], [reserve0, reserve1]] = await Promise.all([
        c.readContract({ address: pool.address, abi: v3PoolAbi, functionName: "slot0", blockNumber: at }),
        c.readContract({
          address: v2.address,
          abi: uniswapV2PairAbi,
          functionName: "getReserves",
          blockNumber: at,
        }),
      ]);
      // Both pools order their tokens by address: the same token0.
      const v2Price = Number(reserve1) / Number(reserve0);
      const v3Price = priceOfSqrt(sqrtPriceX96);
      expect(Math.abs(v3Price / v2Price - 1)).toBeLessThan(0.01);
    }
  });
});
