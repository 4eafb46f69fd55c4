import pino from "pino";
import { type Address, decodeFunctionResult, encodeFunctionData, encodePacked, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createRpcClient } from "../../src/chain/createRpcClient.js";
import { readV3PoolState } from "../../src/chain/readV3PoolState.js";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { createGraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../src/pricing/v3/getSqrtRatioAtTick.js";
import type { Store } from "../../src/store/types.js";
import { getQuote } from "../../src/views/getQuote.js";
import { gql } from "../graphql/support.js";
import {
  DEADLINE,
  DEPLOYER,
  type FixtureToken,
  startV3Fixture,
  V3_ARTIFACTS,
  type V3Fixture,
  type V3PoolRef,
} from "../pricing/v3/v3Fixture.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { projectChainTrades, readTradesFromReceipts } from "../support/readTradesFromReceipts.js";
import { createTestStores } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

const E18 = 10n ** 18n;
const silent = { info() {}, warn() {}, error() {} };

let fx: V3Fixture;
let usd: FixtureToken;
let alt: FixtureToken;
const pools: (V3PoolRef & { spacing: number })[] = [];
const positions: bigint[] = [];

const align = (tick: number, spacing: number) => Math.floor(tick / spacing) * spacing;

/** The tick of a price of `base` in `quote` (whole tokens), as token1 per token0 in smallest units. */
function tickOf(
  base: FixtureToken | Address,
  quote: FixtureToken,
  price: number,
): { token0: Address; token1: Address; tick: number } {
  const baseAddress = typeof base === "string" ? base : base.address;
  const baseDecimals = typeof base === "string" ? 18 : base.decimals;
  const raw = (price * 10 ** quote.decimals) / 10 ** baseDecimals;
  const [token0, token1, ratio] =
    baseAddress < quote.address ? [baseAddress, quote.address, raw] : [quote.address, baseAddress, 1 / raw];
  return { token0, token1, tick: Math.floor(Math.log(ratio) / Math.log(1.0001)) };
}

function sqrt(value: bigint): bigint {
  let x = BigInt(Math.floor(Math.sqrt(Number(value))));
  while (x * x > value) x--;
  while ((x + 1n) * (x + 1n) <= value) x++;
  return x;
}

/**
 * A pool at `price` with positions of every kind; `unit` is the liquidity of a full-range
 * position holding `baseAmount` and its worth in quote (L = sqrt(amount0 x amount1)).
 */
async function createPool(
  base: FixtureToken | Address,
  quote: FixtureToken,
  price: number,
  fee: number,
  spacing: number,
  baseAmount: bigint,
  fullRange = true,
) {
  const { token0, token1, tick } = tickOf(base, quote, price);
  const address = await fx.createPool(token0, token1, fee, getSqrtRatioAtTick(tick));
  const pool = { address, token0, token1, fee, spacing };
  pools.push(pool);
  const t = align(tick, spacing);
  const baseDecimals = typeof base === "string" ? 18 : base.decimals;
  const quoteAmount =
    (baseAmount * BigInt(Math.round(price * 1e6)) * 10n ** BigInt(quote.decimals)) /
    10n ** BigInt(baseDecimals) /
    1_000_000n;
  const unit = sqrt(baseAmount * quoteAmount);
  const min = Math.ceil(MIN_TICK / spacing) * spacing;
  const max = Math.floor(MAX_TICK / spacing) * spacing;
  // Full range, narrow around the price, wider, and out of range on both sides.
  for (const [lower, upper, liquidity] of [
    ...(fullRange ? [[min, max, unit] as const] : []),
    [t - 4 * spacing, t + 4 * spacing, 5n * unit],
    [t - 40 * spacing, t + 30 * spacing, 2n * unit],
    [t + 50 * spacing, t + 90 * spacing, unit],
    [t - 90 * spacing, t - 60 * spacing, unit],
  ] as const) {
    positions.push(await fx.mint(pool, lower, upper, liquidity));
  }
  return pool;
}

async function swap(pool: V3PoolRef, zeroForOne: boolean, amountIn: bigint): Promise<void> {
  await fx.send(
    fx.router,
    encodeFunctionData({
      abi: V3_ARTIFACTS.router.abi,
      functionName: "exactInputSingle",
      args: [
        {
          tokenIn: zeroForOne ? pool.token0 : pool.token1,
          tokenOut: zeroForOne ? pool.token1 : pool.token0,
          fee: pool.fee,
          recipient: DEPLOYER,
          deadline: DEADLINE,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  );
}

/** QuoterV2.quoteExactInput by eth_call over a path of pools (token, fee, token, ...). */
async function quoterOut(path: readonly (Address | number)[], amountIn: bigint): Promise<bigint | undefined> {
  const types = path.map((_, i) => (i % 2 === 0 ? "address" : "uint24"));
  const encoded = encodePacked(types, path as never);
  try {
    const { data } = await fx.client.call({
      to: fx.quoter,
      data: encodeFunctionData({
        abi: V3_ARTIFACTS.quoter.abi,
        functionName: "quoteExactInput",
        args: [encoded, amountIn],
      }),
    });
    const [out] = decodeFunctionResult({
      abi: V3_ARTIFACTS.quoter.abi,
      functionName: "quoteExactInput",
      data: data as Hex,
    }) as readonly [bigint, ...unknown[]];
    return out;
  } catch {
    return undefined;
  }
}

function configOf(): NetworkConfig {
  const weth = fx.weth.toLowerCase() as Address;
  return {
    name: "eth",
    chainId: 31337,
    rpcUrls: [fx.anvil.rpcUrl],
    native: { name: "Ether", symbol: "ETH", aliases: [], decimals: 18, wrapped: weth },
    dexes: [{ name: "Uniswap V3", kind: "uniswap-v3", factory: fx.factory, router: fx.router, feeBps: 0 }],
    tokenList: {
      name: "v3 fixture",
      timestamp: "2026-01-01T00:00:00Z",
      version: { major: 1, minor: 0, patch: 0 },
      tokens: [
        { chainId: 31337, address: weth, name: "Wrapped Ether", symbol: "WETH", decimals: 18 },
        { chainId: 31337, address: usd.address, name: "USD", symbol: "USD", decimals: usd.decimals },
        { chainId: 31337, address: alt.address, name: "ALT", symbol: "ALT", decimals: alt.decimals },
      ],
    },
    stablecoins: [usd.address],
    baseTokens: [weth, usd.address],
    minLiquidityUsd: 1_000n * E18,
    startBlock: 0n,
    windowDays: 7,
    finalityDepth: 5,
    pollIntervalMs: 100,
    maxLogRange: 1_000,
    maxStalenessSeconds: 600,
    rpc: { timeoutMs: 10_000, requestsPerSecond: 0, costModel: "computeUnits" },
  };
}

const stores = createTestStores();

beforeAll(async () => {
  fx = await startV3Fixture();
  usd = await fx.deployToken("USD", 6);
  alt = await fx.deployToken("ALT", 18);
  // The fixture's router and manager pull WETH too: wrap some and approve them.
  const wethAbi = [
    { type: "function", name: "deposit", stateMutability: "payable", inputs: [], outputs: [] },
    {
      type: "function",
      name: "approve",
      stateMutability: "nonpayable",
      inputs: [{ type: "address" }, { type: "uint256" }],
      outputs: [{ type: "bool" }],
    },
  ] as const;
  await fx.send(fx.weth, encodeFunctionData({ abi: wethAbi, functionName: "deposit" }), 5_000n * E18);
  for (const spender of [fx.positionManager, fx.router]) {
    await fx.send(
      fx.weth,
      encodeFunctionData({ abi: wethAbi, functionName: "approve", args: [spender, 2n ** 255n] }),
    );
  }
  const weth = fx.weth.toLowerCase() as Address;
  const main = await createPool(weth, usd, 2_000, 500, 10, 50n * E18);
  const wide = await createPool(weth, usd, 2_000, 3_000, 60, 20n * E18);
  const altPool = await createPool(alt, usd, 0.5, 3_000, 60, 100_000n * E18, false);
  // Trades that cross ticks both ways, then a position leaves, then more trades.
  const wethIsToken0 = main.token0 === weth;
  await swap(main, wethIsToken0, 20n * E18);
  await swap(main, !wethIsToken0, 60_000n * 10n ** 6n);
  await swap(wide, wethIsToken0, 5n * E18);
  await swap(altPool, altPool.token0 === alt.address, 20_000n * E18);
  await fx.decreaseLiquidity(positions[1]!, await fx.positionLiquidity(positions[1]!));
  await swap(main, !wethIsToken0, 40_000n * 10n ** 6n);
  await swap(altPool, altPool.token0 !== alt.address, 9_000n * 10n ** 6n);
}, 120_000);

afterAll(async () => {
  await fx?.stop();
});

describe.each(stores.map((s) => [s.name, s] as const))(
  "V3 pools on the official Uniswap V3 builds (%s)",
  (_, backend) => {
    let indexing: Indexing;
    let store: Store;
    const config = () => configOf();

    beforeAll(async () => {
      store = await backend.open();
      indexing = createIndexing({ networks: [config()], store, log: silent });
      indexing.start();
      const head = await fx.client.getBlockNumber({ cacheTime: 0 });
      await waitUntilIndexed(indexing.views, "eth", { to: head, timeoutMs: 60_000 });
    }, 120_000);

    afterAll(async () => {
      await indexing?.stop();
      await store?.close();
      await backend.cleanup();
    });

    test("behavior: every V3 trade re-derived from the receipts alone equals the store", async () => {
      const chain = await readTradesFromReceipts(config(), 0);
      const stored = await listAllTrades(store, "eth", 0);
      expect(chain.length).toBe(6);
      expect(projectChainTrades(stored)).toEqual(chain);
    });

    test("behavior: each V3 pool's indexed price, liquidity and initialized ticks equal the chain's at the indexed block", async () => {
      const rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
      const block = indexing.views.status("eth").indexedBlock!;
      for (const pool of pools) {
        const chain = (await readV3PoolState(rpc, pool.address, block))!;
        const indexed = indexing.views.getPoolIndex("eth").get(pool.address)!;
        expect(indexed.v3).toEqual({ fee: pool.fee, tickSpacing: pool.spacing });
        const state = indexed.v3State!;
        expect({ sqrtPriceX96: state.sqrtPriceX96, tick: state.tick, liquidity: state.liquidity }).toEqual({
          sqrtPriceX96: chain.sqrtPriceX96,
          tick: chain.tick,
          liquidity: chain.liquidity,
        });
        const ticks = [...state.ticks.entries()].map(([tick, info]) => ({ tick, ...info }));
        expect(ticks).toEqual(
          chain.ticks.map(({ tick, liquidityNet, liquidityGross }) => ({
            tick,
            liquidityNet,
            liquidityGross,
          })),
        );
        // A position left: its bounds are gone from the chain and from the index alike.
        expect(ticks.length).toBeGreaterThanOrEqual(6);
      }
    });

    test("behavior: quotes through V3 pools equal QuoterV2 for amounts from dust to more than the pools hold", async () => {
      const weth = fx.weth.toLowerCase() as Address;
      let compared = 0;
      let exhausted = 0;
      for (const [sell, buy, decimals] of [
        [weth, usd.address, 18],
        [usd.address, weth, 6],
        [alt.address, weth, 18],
      ] as const) {
        // 0.000001 to 10 million whole tokens, log-spaced: dust, within a tick, across many, too much.
        for (let step = 0; step <= 78; step++) {
          const whole = 10 ** (-6 + step / 6);
          const sellAmount = BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(decimals - 6);
          const quote = await getQuote(indexing.views, {
            network: "eth",
            sellToken: sell,
            buyToken: buy,
            sellAmount,
          });
          if (quote.kind !== "quote") {
            exhausted++;
            continue;
          }
          const path: (Address | number)[] = [quote.route.path[0]!];
          for (const [i, pool] of quote.route.pools.entries())
            path.push(pool.v3!.fee, quote.route.path[i + 1]!);
          expect(await quoterOut(path, sellAmount), `${whole} ${sell} -> ${buy}`).toBe(quote.buyAmount);
          compared++;
        }
      }
      expect(compared).toBeGreaterThanOrEqual(200);
      // 10 million ALT is more than the ALT pool can fill: no route rather than a fill it cannot give.
      expect(exhausted).toBeGreaterThanOrEqual(1);
    });

    test("behavior: GraphQL shows V3 pools with their fee tier, price, tick and liquidity, filters them by kind, and routes through them", async () => {
      const yoga = createGraphqlServer({ reader: indexing.views, logger: pino({ level: "silent" }) });
      const { body } = await gql(
        yoga,
        `{ v3: pools(network: eth, kind: V3, first: 10) { edges { node { address kind feeTier tickSpacing sqrtPriceX96 tick liquidity } } }
         v2: pools(network: eth, kind: V2) { edges { node { address } } }
         quote(network: eth, sellToken: "WETH", buyToken: "USD", sellAmount: "3000000000000000000") { buyAmount route { pools { address kind feeTier } } }
         liquidityEvents(network: eth, from: 0, first: 3) { edges { node { type tickLower tickUpper liquidity pool { kind } } } } }`,
      );
      expect(body.errors).toBeUndefined();
      const shown = (body.data!.v3 as { edges: { node: Record<string, unknown> }[] }).edges.map(
        (e) => e.node,
      );
      const block = indexing.views.status("eth").indexedBlock!;
      const rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
      expect(shown.map((p) => p.address).sort()).toEqual(pools.map((p) => p.address).sort());
      for (const pool of pools) {
        const chain = (await readV3PoolState(rpc, pool.address, block))!;
        expect(shown.find((p) => p.address === pool.address)).toEqual({
          address: pool.address,
          kind: "V3",
          feeTier: pool.fee,
          tickSpacing: pool.spacing,
          sqrtPriceX96: String(chain.sqrtPriceX96),
          tick: chain.tick,
          liquidity: String(chain.liquidity),
        });
      }
      expect((body.data!.v2 as { edges: unknown[] }).edges).toEqual([]);
      const quote = body.data!.quote as {
        buyAmount: string;
        route: { pools: { kind: string; feeTier: number }[] };
      };
      expect(quote.route.pools.every((p) => p.kind === "V3" && [500, 3000].includes(p.feeTier))).toBe(true);
      const events = (body.data!.liquidityEvents as { edges: { node: Record<string, unknown> }[] }).edges;
      expect(events.map((e) => e.node.type)).toEqual(["MINT", "MINT", "MINT"]);
      for (const { node } of events) {
        expect(node.pool).toEqual({ kind: "V3" });
        expect(typeof node.tickLower).toBe("number");
        expect(BigInt(node.liquidity as string) > 0n).toBe(true);
      }
    });

    test("behavior: V3 mints and burns are stored as liquidity events", async () => {
      const events = await store.listLiquidityEvents("eth", { fromTimestamp: 0, limit: 1_000 });
      const mints = events.filter((e) => e.type === "mint");
      const burns = events.filter((e) => e.type === "burn");
      expect(mints).toHaveLength(14);
      expect(burns.length).toBeGreaterThanOrEqual(1);
      for (const event of events) {
        expect(event.sender).toBe(DEPLOYER);
        expect(event.owner).toBe(fx.positionManager.toLowerCase());
        expect(event.liquidity! > 0n).toBe(true);
      }
    });
  },
);

describe("a reorg across a tick crossing", () => {
  test("behavior: after the chain is replaced, every V3 pool's state and every trade equal the new chain", async () => {
    const store = await stores[0]!.open();
    const indexing = createIndexing({ networks: [configOf()], store, log: silent });
    const indexedHead = async () => {
      const head = await fx.client.getBlock({ blockTag: "latest" });
      await waitFor(async () => {
        const status = indexing.views.status("eth");
        const stored = await store.getCheckpoint("eth");
        return status.ready && stored?.blockHash === head.hash;
      }, 60_000);
      return head.number;
    };
    try {
      indexing.start();
      await indexedHead();
      const weth = fx.weth.toLowerCase() as Address;
      const main = pools[0]!;
      const snapshot = (await fx.client.request({ method: "evm_snapshot" as never })) as Hex;
      // The replaced branch: a swap across many ticks and a new position.
      await swap(main, main.token0 === weth, 25n * E18);
      await fx.mint(main, -887_270, 887_270, 10n ** 12n);
      await indexedHead();
      await fx.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
      // The new branch is longer: a swap the other way, and empty blocks.
      await swap(main, main.token0 !== weth, 90_000n * 10n ** 6n);
      await fx.client.request({ method: "anvil_mine" as never, params: ["0x2"] as never });
      const head = await indexedHead();
      const rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
      for (const pool of pools) {
        const chain = (await readV3PoolState(rpc, pool.address, head))!;
        const state = indexing.views.getPoolIndex("eth").get(pool.address)!.v3State!;
        expect([state.sqrtPriceX96, state.tick, state.liquidity]).toEqual([
          chain.sqrtPriceX96,
          chain.tick,
          chain.liquidity,
        ]);
        expect([...state.ticks.entries()].map(([tick, info]) => ({ tick, ...info }))).toEqual(
          chain.ticks.map(({ tick, liquidityNet, liquidityGross }) => ({
            tick,
            liquidityNet,
            liquidityGross,
          })),
        );
      }
      // The store's rows agree after the rollback: an API replica loading them sees the same states.
      const replica = createIndexing({ networks: [configOf()], store, log: silent, role: "api" });
      replica.start();
      await waitFor(
        () => replica.views.getPoolIndex("eth").get(pools[0]!.address)?.v3State !== undefined,
        30_000,
      );
      for (const pool of pools) {
        const a = replica.views.getPoolIndex("eth").get(pool.address)!.v3State!;
        const b = indexing.views.getPoolIndex("eth").get(pool.address)!.v3State!;
        expect([a.sqrtPriceX96, a.tick, a.liquidity, [...a.ticks.entries()]]).toEqual([
          b.sqrtPriceX96,
          b.tick,
          b.liquidity,
          [...b.ticks.entries()],
        ]);
      }
      await replica.stop();
      expect(projectChainTrades(await listAllTrades(store, "eth", 0))).toEqual(
        await readTradesFromReceipts(configOf(), 0),
      );
    } finally {
      await indexing.stop();
      await store.close();
    }
  }, 120_000);
});

describe("V3 pools created before the indexed window", () => {
  test("behavior: a pool first met mid-history is read from the chain before its first range, and its state stays the chain's", async () => {
    const store = await stores[0]!.open();
    // Start after the pools, their positions and the first swaps: every pool is met mid-history.
    const head = await fx.client.getBlockNumber({ cacheTime: 0 });
    const config = { ...configOf(), startBlock: head - 2n };
    const indexing = createIndexing({ networks: [config], store, log: silent });
    try {
      indexing.start();
      await waitUntilIndexed(indexing.views, "eth", { to: head, ready: false, timeoutMs: 60_000 });
      // A swap across ticks in each pool after the start: state from the snapshot plus events.
      const weth = fx.weth.toLowerCase() as Address;
      for (const pool of pools.slice(0, 2)) await swap(pool, pool.token0 === weth, 3n * E18);
      const next = await fx.client.getBlockNumber({ cacheTime: 0 });
      await waitUntilIndexed(indexing.views, "eth", { to: next, ready: false, timeoutMs: 60_000 });
      const rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
      for (const pool of pools.slice(0, 2)) {
        const chain = (await readV3PoolState(rpc, pool.address, next))!;
        const state = indexing.views.getPoolIndex("eth").get(pool.address)!.v3State!;
        expect([state.sqrtPriceX96, state.tick, state.liquidity]).toEqual([
          chain.sqrtPriceX96,
          chain.tick,
          chain.liquidity,
        ]);
        expect([...state.ticks.entries()].map(([tick, info]) => ({ tick, ...info }))).toEqual(
          chain.ticks.map(({ tick, liquidityNet, liquidityGross }) => ({
            tick,
            liquidityNet,
            liquidityGross,
          })),
        );
      }
      // The snapshot's ticks are in the store too: an API replica loads the same states.
      const replica = createIndexing({ networks: [config], store, log: silent, role: "api" });
      replica.start();
      await waitFor(
        () => replica.views.getPoolIndex("eth").get(pools[0]!.address)?.v3State !== undefined,
        30_000,
      );
      const a = replica.views.getPoolIndex("eth").get(pools[0]!.address)!.v3State!;
      const b = indexing.views.getPoolIndex("eth").get(pools[0]!.address)!.v3State!;
      expect([a.sqrtPriceX96, a.liquidity, [...a.ticks.entries()]]).toEqual([
        b.sqrtPriceX96,
        b.liquidity,
        [...b.ticks.entries()],
      ]);
      await replica.stop();
    } finally {
      await indexing.stop();
      await store.close();
    }
  }, 120_000);
});

describe.each(stores.map((s) => [s.name, s] as const))(
  "a token whose only pools are V3 pools untouched in the indexed window (%s)",
  (_, backend) => {
    test("behavior: a quote finds the pool by getPool, reads its state at the checkpoint and quotes as QuoterV2; the state is stored for replicas", async () => {
      const lone = await fx.deployToken(`LONE${backend.name}`, 18);
      const pool = await createPool(lone, usd, 3, 3_000, 60, 10_000n * E18);
      // Out of the list the other describes walk: this pool is only this test's.
      pools.pop();
      // An event elsewhere after the pool's last one: the window starts past the pool's events.
      const weth = fx.weth.toLowerCase() as Address;
      await swap(pools[0]!, pools[0]!.token0 === weth, E18 / 10n);
      const head = await fx.client.getBlockNumber({ cacheTime: 0 });
      const store = await backend.open();
      const config = { ...configOf(), startBlock: head };
      const indexing = createIndexing({ networks: [config], store, log: silent });
      const rpc = createRpcClient({ urls: [fx.anvil.rpcUrl], chainId: 31337, retryCount: 0, batch: true });
      try {
        indexing.start();
        await waitFor(() => {
          const status = indexing.views.status("eth");
          return status.ready && status.indexedBlock === head;
        }, 60_000);
        expect(indexing.views.getPoolIndex("eth").get(pool.address)).toBeUndefined();
        const sellAmount = 250n * E18;
        const quote = await getQuote(indexing.views, {
          network: "eth",
          sellToken: lone.address,
          buyToken: usd.address,
          sellAmount,
        });
        expect(quote.kind).toBe("quote");
        if (quote.kind !== "quote") return;
        expect(quote.route.pools.map((p) => p.address)).toEqual([pool.address]);
        expect(quote.buyAmount).toBe(await quoterOut([lone.address, 3_000, usd.address], sellAmount));
        // A swap in the pool afterwards moves the state on from the one read: it stays the chain's.
        await swap(pool, pool.token0 === lone.address, 2_000n * E18);
        const next = await fx.client.getBlockNumber({ cacheTime: 0 });
        await waitUntilIndexed(indexing.views, "eth", { to: next, ready: false, timeoutMs: 60_000 });
        const chain = (await readV3PoolState(rpc, pool.address, next))!;
        const state = indexing.views.getPoolIndex("eth").get(pool.address)!.v3State!;
        const ticksOf = (entries: Iterable<[number, { liquidityNet: bigint; liquidityGross: bigint }]>) =>
          [...entries].map(([tick, { liquidityNet, liquidityGross }]) => ({
            tick,
            liquidityNet,
            liquidityGross,
          }));
        expect([state.sqrtPriceX96, state.tick, state.liquidity]).toEqual([
          chain.sqrtPriceX96,
          chain.tick,
          chain.liquidity,
        ]);
        expect(ticksOf(state.ticks.entries())).toEqual(ticksOf(chain.ticks.map((t) => [t.tick, t] as const)));
        // What the lookup read went to the store: an API replica loads the same state.
        const replica = createIndexing({ networks: [config], store, log: silent, role: "api" });
        replica.start();
        try {
          await waitFor(
            () =>
              replica.views.getPoolIndex("eth").get(pool.address)?.v3State?.sqrtPriceX96 ===
              chain.sqrtPriceX96,
            30_000,
          );
          const copy = replica.views.getPoolIndex("eth").get(pool.address)!.v3State!;
          expect(copy.liquidity).toBe(chain.liquidity);
          expect(ticksOf(copy.ticks.entries())).toEqual(ticksOf(state.ticks.entries()));
        } finally {
          await replica.stop();
        }
      } finally {
        await indexing.stop();
        await store.close();
        await backend.cleanup();
      }
    }, 120_000);
  },
);
