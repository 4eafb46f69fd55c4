import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChainWriter } from "@swapgraph/devnet/anvil/createChainWriter.js";
import type { CreatedPoolInfo } from "@swapgraph/devnet/cases/createChainCaseSimulation.js";
import {
  devnetTokenAbi,
  swapEvent,
  uniswapV2PairAbi,
  uniswapV2RouterAbi,
} from "@swapgraph/devnet/deploy/devnetAbis.js";
import type { DevnetToken } from "@swapgraph/devnet/devnetTypes.js";
import { createArbitrageur } from "@swapgraph/devnet/market/createArbitrageur.js";
import { createPoolMirror } from "@swapgraph/devnet/market/createPoolMirror.js";
import { DEVNET_PRESETS } from "@swapgraph/devnet/presets/devnetPresets.js";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { parseUsd } from "@swapgraph/devnet/usdToUnits.js";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  http,
  maxUint256,
  parseAbi,
  parseAbiItem,
  parseEther,
} from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { NETWORKS, USD_SCALE } from "../../src/domain/types.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import { getTokenPriceUsd } from "../../src/pricing/getTokenPriceUsd.js";
import type { PoolIndex, PoolState, PricingParams } from "../../src/pricing/types.js";
import { valueTradeUsd } from "../../src/pricing/valueTradeUsd.js";
import { mine, revert, snapshot } from "../support/devnet.js";
import { findBestRoute } from "../support/findBestRoute.js";

const syncEvent = parseAbiItem("event Sync(uint112 reserve0, uint112 reserve1)");
const factoryAbi = parseAbi([
  "function allPairsLength() view returns (uint256)",
  "function allPairs(uint256) view returns (address)",
]);

/** A network of the demo as the API would see it: every pair of its factories, read from the chain. */
interface Market {
  chain: DevnetChainInfo;
  config: NetworkConfig;
  client: ReturnType<typeof makeClient>;
  index: PoolIndex;
  params: PricingParams;
  /** Reference USD price of every listed token by address. */
  reference: Map<Address, bigint>;
  decimals: Map<Address, number>;
  symbols: Map<Address, string>;
}

let devnet: Devnet;
let dataDir: string;
const markets = new Map<string, Market>();

function makeClient(rpcUrl: string) {
  return createPublicClient({ cacheTime: 0, transport: http(rpcUrl, { batch: true, retryCount: 0 }) });
}

async function readMarket(chain: DevnetChainInfo, config: NetworkConfig): Promise<Market> {
  const client = makeClient(chain.rpcUrl);
  const pools: PoolState[] = [];
  // The V2 DEXes' pools (the V3 DEX has its own test: test/devnet/v3Devnet.test.ts).
  for (const dex of config.dexes.filter((d) => d.kind === "uniswap-v2")) {
    const count = await client.readContract({
      address: dex.factory,
      abi: factoryAbi,
      functionName: "allPairsLength",
    });
    const addresses = await Promise.all(
      Array.from({ length: Number(count) }, (_, i) =>
        client.readContract({
          address: dex.factory,
          abi: factoryAbi,
          functionName: "allPairs",
          args: [BigInt(i)],
        }),
      ),
    );
    const states = await Promise.all(
      addresses.map(async (raw) => {
        const address = raw.toLowerCase() as Address;
        const [token0, token1, [reserve0, reserve1]] = await Promise.all([
          client.readContract({ address, abi: uniswapV2PairAbi, functionName: "token0" }),
          client.readContract({ address, abi: uniswapV2PairAbi, functionName: "token1" }),
          client.readContract({ address, abi: uniswapV2PairAbi, functionName: "getReserves" }),
        ]);
        return {
          address,
          dex: dex.name,
          factory: dex.factory,
          token0: token0.toLowerCase() as Address,
          token1: token1.toLowerCase() as Address,
          feeBps: dex.feeBps,
          reserve0,
          reserve1,
        };
      }),
    );
    pools.push(...states);
  }
  const decimals = new Map<Address, number>();
  const symbols = new Map<Address, string>();
  for (const token of config.tokenList.tokens) {
    decimals.set(token.address as Address, token.decimals);
    symbols.set(token.address as Address, token.symbol);
  }
  for (const spec of DEVNET_PRESETS[chain.network].unlisted) {
    const address = chain.unlisted[spec.symbol] as Address;
    decimals.set(address, spec.decimals);
    symbols.set(address, spec.symbol);
  }
  const reference = new Map<Address, bigint>();
  for (const [symbol, price] of Object.entries(chain.referencePricesUsd))
    reference.set(chain.tokens[symbol] as Address, price);
  return {
    chain,
    config,
    client,
    index: createPoolIndex(pools),
    params: {
      wrappedNative: config.native.wrapped as Address,
      stablecoins: new Set(config.stablecoins as Address[]),
      baseTokens: new Set(config.baseTokens as Address[]),
      minLiquidityUsd: config.minLiquidityUsd,
      decimals: (token) => decimals.get(token),
    },
    reference,
    decimals,
    symbols,
  };
}

function marketOf(network: string): Market {
  return markets.get(network) as Market;
}

/** Mid price of a pool relative to the reference: 1 when the pool prices token0 as the reference does. */
function midVsReference(m: Market, pool: PoolState): number {
  const usd0 =
    (pool.reserve0 * (m.reference.get(pool.token0) as bigint)) /
    10n ** BigInt(m.decimals.get(pool.token0) ?? 0);
  const usd1 =
    (pool.reserve1 * (m.reference.get(pool.token1) as bigint)) /
    10n ** BigInt(m.decimals.get(pool.token1) ?? 0);
  return Number(usd1) / Number(usd0);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-market-"));
  // The demo as `npm start` builds it (three networks, seven days, 3,000 trades each), not traded live.
  devnet = await startDevnet({ liveIntervalMs: 0, dataDir, seed: 1 });
  for (const [i, chain] of devnet.chains.entries())
    markets.set(chain.network, await readMarket(chain, devnet.networks[i] as NetworkConfig));
});

afterAll(async () => {
  await devnet?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

describe("the demo market", () => {
  test("args: the reference walk ends at the presets' prices; stablecoins are pegged at 1", () => {
    for (const network of NETWORKS) {
      const { chain } = marketOf(network);
      const preset = DEVNET_PRESETS[network];
      const expected: Record<string, bigint> = { [preset.wrapped.symbol]: parseUsd(preset.native.priceUsd) };
      for (const token of preset.tokens) expected[token.symbol] = parseUsd(token.priceUsd);
      expect(chain.referencePricesUsd).toEqual(expected);
      for (const stable of preset.stablecoins) expect(chain.referencePricesUsd[stable]).toBe(USD_SCALE);
    }
  });

  test.each(NETWORKS)(
    "behavior: on %s every pair of listed tokens quotes within 2% of the reference, stablecoin pairs within 1% of 1",
    async (network) => {
      const m = marketOf(network);
      const tokens = m.config.tokenList.tokens.map((t) => t.address as Address);
      let worst = 0;
      let worstStable = 0;
      const checks: Promise<void>[] = [];
      for (const sell of tokens) {
        for (const buy of tokens) {
          if (sell === buy) continue;
          const sellPrice = m.reference.get(sell) as bigint;
          const buyPrice = m.reference.get(buy) as bigint;
          // Ten dollars' worth: small enough that price impact stays far below the bounds.
          const amountIn = (10n * USD_SCALE * 10n ** BigInt(m.decimals.get(sell) ?? 0)) / sellPrice;
          const route = findBestRoute({
            index: m.index,
            sell,
            buy,
            amountIn,
            baseTokens: m.params.baseTokens,
          });
          expect(route, `${m.symbols.get(sell)} -> ${m.symbols.get(buy)}`).toBeDefined();
          if (route === undefined) continue;
          const outUsd = (route.amountOut * buyPrice) / 10n ** BigInt(m.decimals.get(buy) ?? 0);
          const ratio = Number(outUsd) / Number(10n * USD_SCALE);
          const pair = `${m.symbols.get(sell)} -> ${m.symbols.get(buy)} via ${route.path.map((t) => m.symbols.get(t)).join(">")}`;
          expect(Math.abs(ratio - 1), pair).toBeLessThan(0.02);
          worst = Math.max(worst, Math.abs(ratio - 1));
          if (m.params.stablecoins.has(sell) && m.params.stablecoins.has(buy)) {
            // Stablecoins are worth 1 each: the quote itself is within 1% of 1 (decimals aside).
            expect(Math.abs(ratio - 1), pair).toBeLessThan(0.01);
            worstStable = Math.max(worstStable, Math.abs(ratio - 1));
          }
          // The routers' own math along the route gives the same output.
          checks.push(
            (async () => {
              let amount = amountIn;
              for (const hop of route.hops) {
                const router = m.config.dexes.find((d) => d.name === hop.pool.dex)?.router as Address;
                const amounts = await m.client.readContract({
                  address: router,
                  abi: uniswapV2RouterAbi,
                  functionName: "getAmountsOut",
                  args: [amount, [hop.tokenIn, hop.tokenOut]],
                });
                amount = amounts[1] as bigint;
              }
              expect(amount, pair).toBe(route.amountOut);
            })(),
          );
        }
      }
      await Promise.all(checks);
      expect(checks.length).toBe(tokens.length * (tokens.length - 1));
      // Printed for the README and the report: the market is far tighter than the bounds.
      console.info(
        `${network}: worst listed pair ${(worst * 100).toFixed(2)}%, worst stable pair ${(worstStable * 100).toFixed(2)}%`,
      );
    },
  );

  test.each(NETWORKS)(
    "behavior: on %s every seeded pool of listed tokens sits within its fee band, so both DEXes agree",
    (network) => {
      const m = marketOf(network);
      const seeded = m.chain.pools.filter(
        (p) => !p.thin && !p.wash && p.symbols.every((s) => s in m.chain.tokens),
      );
      expect(seeded.length).toBeGreaterThan(15);
      const byPair = new Map<string, number[]>();
      for (const info of seeded) {
        const pool = m.index.get(info.address) as PoolState;
        const gamma = 1 - pool.feeBps / 10_000;
        const mid = midVsReference(m, pool);
        // The arbitrageur trades a pool once it is off by more than the fee (and a 0.01% margin).
        expect(mid, info.symbols.join("/")).toBeGreaterThanOrEqual(gamma * (1 - 1e-4));
        expect(mid, info.symbols.join("/")).toBeLessThanOrEqual((1 + 1e-4) / gamma);
        const key = `${pool.token0}:${pool.token1}`;
        byPair.set(key, [...(byPair.get(key) ?? []), mid]);
      }
      const onBoth = [...byPair.values()].filter((mids) => mids.length === 2);
      expect(onBoth.length).toBeGreaterThanOrEqual(5);
      // No cross-DEX arbitrage is left: the two prices differ by less than the two fees.
      for (const [a, b] of onBoth as [number, number][]) expect(Math.abs(a / b - 1)).toBeLessThan(0.0062);
    },
  );

  test.each(NETWORKS)(
    "behavior: on %s the USD guard prices every listed token within 1% of its reference",
    (network) => {
      const m = marketOf(network);
      for (const [token, reference] of m.reference) {
        const price = getTokenPriceUsd(m.index, m.params, token);
        expect(price, m.symbols.get(token)).toBeDefined();
        expect(Math.abs(Number(price) / Number(reference) - 1), m.symbols.get(token)).toBeLessThan(0.01);
      }
    },
  );

  test.each(NETWORKS)(
    "behavior: on %s the thin pool prices an unlisted token 100x off its market and the USD guard ignores it",
    (network) => {
      const m = marketOf(network);
      const moon = m.chain.unlisted.MOON as Address;
      const thin = m.index.get(m.chain.thinPool) as PoolState;
      const thinInfo = m.chain.pools.find((p) => p.address === m.chain.thinPool);
      expect(thinInfo?.symbols[0]).toBe("MOON");
      expect(thinInfo?.thin).toBe(true);
      // Any pool holding a listed token besides MOON's: none is thin; MOON's deep pool is its market.
      expect(m.chain.pools.filter((p) => p.thin)).toHaveLength(1);
      const deep = m.index.poolsBetween(moon, m.params.wrappedNative)[0] as PoolState;
      const nativeUsd = getTokenPriceUsd(m.index, m.params, m.params.wrappedNative) as bigint;
      const unitPrice = (pool: PoolState, quoteUsd: bigint, quoteDecimals: number) => {
        const [moonReserve, quoteReserve] =
          pool.token0 === moon ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
        return (quoteReserve * quoteUsd * 10n ** 18n) / (moonReserve * 10n ** BigInt(quoteDecimals));
      };
      const stable = thin.token0 === moon ? thin.token1 : thin.token0;
      const thinPrice = unitPrice(thin, USD_SCALE, m.decimals.get(stable) as number);
      const deepPrice = unitPrice(deep, nativeUsd, 18);
      expect(thinPrice).toBeGreaterThan(deepPrice * 30n);
      // The thin pool holds a few dollars: under the minimum liquidity, so it never sets a price.
      expect(thinPrice * (thin.token0 === moon ? thin.reserve0 : thin.reserve1)).toBeLessThan(
        m.params.minLiquidityUsd * 10n ** 18n,
      );
      const guarded = getTokenPriceUsd(m.index, m.params, moon) as bigint;
      expect(guarded).toBe(deepPrice);
      // A MOON -> native trade in the deep pool is worth its native side, not 100x that.
      const amountIn = parseEther("10000");
      const [moonReserve, nativeReserve] =
        deep.token0 === moon ? [deep.reserve0, deep.reserve1] : [deep.reserve1, deep.reserve0];
      const amountOut = (amountIn * 997n * nativeReserve) / (moonReserve * 1000n + amountIn * 997n);
      const value = valueTradeUsd({
        index: m.index,
        params: m.params,
        tokenIn: moon,
        amountIn,
        tokenOut: m.params.wrappedNative,
        amountOut,
      });
      const nativeSide = (amountOut * nativeUsd) / 10n ** 18n;
      expect(value.tracked).toBe(true);
      expect(Number(value.volumeUsd) / Number(nativeSide)).toBeGreaterThan(0.98);
      expect(Number(value.volumeUsd) / Number(nativeSide)).toBeLessThan(1.02);
    },
  );

  test.each(NETWORKS)(
    "behavior: on %s the wash trader churned a tiny pool with huge notional, valued by its priced side only",
    async (network) => {
      const m = marketOf(network);
      const { chain } = m;
      const wash = chain.pools.find((p) => p.wash);
      expect(wash?.address).toBe(chain.washPool);
      expect(wash?.symbols[0]).toBe("RUG");
      const rug = chain.unlisted.RUG as Address;
      const logs = await m.client.getLogs({
        address: chain.washPool,
        event: swapEvent,
        fromBlock: chain.history.fromBlock,
        toBlock: chain.history.toBlock,
      });
      const byTx = new Map<Hash, (typeof logs)[number]>();
      for (const log of logs) byTx.set(log.transactionHash, log);
      const txs = await Promise.all([...byTx.keys()].map((hash) => m.client.getTransaction({ hash })));
      const washTxs = txs.filter((tx) => tx.from.toLowerCase() === chain.washTrader);
      expect(washTxs).toHaveLength(chain.history.washTrades);
      expect(washTxs.length).toBeGreaterThanOrEqual(20);
      const pool = m.index.get(chain.washPool) as PoolState;
      const rugIsToken0 = pool.token0 === rug;
      const nativeUsd = getTokenPriceUsd(m.index, m.params, m.params.wrappedNative) as bigint;
      // RUG's only pool is far below the minimum liquidity: RUG has no USD price.
      expect(getTokenPriceUsd(m.index, m.params, rug)).toBeUndefined();
      let sells = 0;
      for (const tx of washTxs) {
        const log = byTx.get(tx.hash) as (typeof logs)[number];
        const { amount0In, amount1In, amount0Out, amount1Out } = log.args as Record<string, bigint>;
        const rugIn = rugIsToken0 ? amount0In : amount1In;
        if (rugIn === 0n) continue;
        sells++;
        const nativeOut = rugIsToken0 ? amount1Out : amount0Out;
        // Hundreds of times the pool's whole RUG reserve in one trade.
        expect(rugIn).toBeGreaterThan(100n * (rugIsToken0 ? pool.reserve0 : pool.reserve1));
        const value = valueTradeUsd({
          index: m.index,
          params: m.params,
          tokenIn: rug,
          amountIn: rugIn as bigint,
          tokenOut: m.params.wrappedNative,
          amountOut: nativeOut as bigint,
        });
        // Valued by its native side: what the pool held, a few dollars.
        expect(value.volumeUsd).toBe(((nativeOut as bigint) * nativeUsd) / 10n ** 18n);
        expect(value.volumeUsd).toBeLessThan(1000n * USD_SCALE);
      }
      expect(sells).toBe(washTxs.length / 2);
    },
  );

  test("behavior: the arbitrageur's trades are router swaps of one pool each, mined with the traders'", async () => {
    const m = marketOf("bsc");
    const { chain } = m;
    expect(chain.history.arbitrageTrades).toBeGreaterThan(100);
    const logs = await m.client.getLogs({
      event: swapEvent,
      fromBlock: chain.history.fromBlock,
      toBlock: chain.history.toBlock,
    });
    const hashes = [...new Set(logs.map((l) => l.transactionHash))];
    // Besides the traders', the arbitrageur's and the wash trader's: the real-chain cases' swaps.
    expect(hashes.length).toBeGreaterThanOrEqual(
      chain.history.trades + chain.history.arbitrageTrades + chain.history.washTrades,
    );
    const txs = await Promise.all(hashes.map((hash) => m.client.getTransaction({ hash })));
    const arbitrage = txs.filter((tx) => tx.from.toLowerCase() === chain.arbitrageur);
    expect(arbitrage).toHaveLength(chain.history.arbitrageTrades);
    const routers = new Set(chain.dexes.map((d) => d.router));
    for (const tx of arbitrage) expect(routers.has(tx.to?.toLowerCase() as Address)).toBe(true);
    const perTx = new Map<Hash, number>();
    for (const log of logs) perTx.set(log.transactionHash, (perTx.get(log.transactionHash) ?? 0) + 1);
    for (const tx of arbitrage) expect(perTx.get(tx.hash)).toBe(1);
    // Arbitrage follows the traders in their blocks: every block with arbitrage also holds trades.
    const traders = new Set(chain.traders);
    const traded = new Set(
      txs.filter((tx) => traders.has(tx.from.toLowerCase() as Address)).map((tx) => tx.blockNumber),
    );
    const arbitraged = [...new Set(arbitrage.map((tx) => tx.blockNumber))];
    expect(arbitraged.every((block) => traded.has(block))).toBe(true);
  });

  test.each(NETWORKS)(
    "behavior: on %s a pool of two listed tokens opened mid-week trades off the market until the arbitrageur starts on it, then within its fee band",
    async (network) => {
      const m = marketOf(network);
      const { chain } = m;
      const created = chain.chainCases?.createdPools.filter((p) => p.offMarketUntil !== undefined) ?? [];
      expect(created).toHaveLength(1);
      const info = created[0] as CreatedPoolInfo;
      const { offMarketUntil, arbitragedAt, referenceUsd } = info;
      const [a, b] = info.symbols.map((s) => chain.tokens[s] as Address) as [Address, Address];
      // Two listed tokens, neither a stablecoin, that had no pool on that DEX before.
      expect(a).toBeDefined();
      expect(b).toBeDefined();
      expect(m.params.stablecoins.has(a) || m.params.stablecoins.has(b)).toBe(false);
      expect(
        chain.pools.some((p) => p.dex === info.dex && info.symbols.every((s) => p.symbols.includes(s))),
      ).toBe(false);
      expect(arbitragedAt).toBeGreaterThanOrEqual(offMarketUntil as number);
      const pool = m.index.get(info.address) as PoolState;
      const gamma = 1 - pool.feeBps / 10_000;
      // The pool's price of `a` over the reference's (1 = on the reference), from its reserves.
      const mid = (reserve0: bigint, reserve1: bigint, [priceA, priceB]: [bigint, bigint]) => {
        const [reserveA, reserveB] = pool.token0 === a ? [reserve0, reserve1] : [reserve1, reserve0];
        const usdA = (reserveA * priceA) / 10n ** BigInt(m.decimals.get(a) ?? 0);
        const usdB = (reserveB * priceB) / 10n ** BigInt(m.decimals.get(b) ?? 0);
        return Number(usdB) / Number(usdA);
      };
      const range = { address: info.address, fromBlock: info.block, toBlock: chain.history.toBlock };
      const [syncs, swaps] = await Promise.all([
        m.client.getLogs({ ...range, event: syncEvent }),
        m.client.getLogs({ ...range, event: swapEvent }),
      ]);
      const blocks = new Map<bigint, number>();
      for (const n of new Set(syncs.map((l) => l.blockNumber)))
        blocks.set(n, Number((await m.client.getBlock({ blockNumber: n })).timestamp));
      const txs = await Promise.all(swaps.map((l) => m.client.getTransaction({ hash: l.transactionHash })));
      const arbitrage = txs.filter((tx) => tx.from.toLowerCase() === chain.arbitrageur);
      const traded = txs.filter((tx) => chain.traders.includes(tx.from.toLowerCase() as Address));
      expect(arbitrage.length + traded.length).toBe(swaps.length);

      // Created off the market, far beyond its fee band, and traded in its first block.
      const first = syncs[0] as (typeof syncs)[number];
      expect(first.blockNumber).toBe(info.block);
      const atCreation = mid(
        first.args.reserve0 as bigint,
        first.args.reserve1 as bigint,
        referenceUsd!.created,
      );
      expect(Math.abs(atCreation - 1)).toBeGreaterThanOrEqual(0.25 - 1e-6);
      expect(Math.abs(atCreation - 1)).toBeLessThanOrEqual(0.4 + 1e-6);
      expect(traded.filter((tx) => tx.blockNumber === info.block).length).toBeGreaterThanOrEqual(2);
      // Nobody arbitrages it before offMarketUntil: the traders' trades there are all off the market.
      const offMarket = syncs.filter(
        (l) => (blocks.get(l.blockNumber) as number) < (offMarketUntil as number),
      );
      expect(offMarket.length).toBeGreaterThanOrEqual(4);
      let closest = Number.POSITIVE_INFINITY;
      for (const log of offMarket)
        closest = Math.min(
          closest,
          Math.abs(mid(log.args.reserve0 as bigint, log.args.reserve1 as bigint, referenceUsd!.created) - 1),
        );
      expect(closest).toBeGreaterThan(0.2);
      const firstArbitrage = arbitrage.reduce(
        (min, tx) => (tx.blockNumber < min ? tx.blockNumber : min),
        2n ** 64n,
      );
      expect(blocks.get(firstArbitrage)).toBe(arbitragedAt);
      // The arbitrageur's first trade (the block's last) puts it back on the reference of that moment.
      const after = syncs.filter((l) => l.blockNumber === firstArbitrage).at(-1) as (typeof syncs)[number];
      const atArbitrage = mid(
        after.args.reserve0 as bigint,
        after.args.reserve1 as bigint,
        referenceUsd!.arbitraged!,
      );
      expect(atArbitrage).toBeGreaterThanOrEqual(gamma * (1 - 1e-4));
      expect(atArbitrage).toBeLessThanOrEqual((1 + 1e-4) / gamma);
      // And keeps it there: today it sits in its band, and a small quote through it alone is the market's.
      const now = midVsReference(m, pool);
      expect(now).toBeGreaterThanOrEqual(gamma * (1 - 1e-4));
      expect(now).toBeLessThanOrEqual((1 + 1e-4) / gamma);
      for (const [sell, buy] of [
        [a, b],
        [b, a],
      ] as const) {
        const sellPrice = m.reference.get(sell) as bigint;
        const amountIn = (10n * USD_SCALE * 10n ** BigInt(m.decimals.get(sell) ?? 0)) / sellPrice;
        const [reserveIn, reserveOut] =
          pool.token0 === sell ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
        const out = getAmountOut(amountIn, reserveIn, reserveOut, pool.feeBps);
        const outUsd = (out * (m.reference.get(buy) as bigint)) / 10n ** BigInt(m.decimals.get(buy) ?? 0);
        expect(Math.abs(Number(outUsd) / Number(10n * USD_SCALE) - 1)).toBeLessThan(0.02);
      }
      console.info(
        `${network}: ${info.symbols.join("/")} opened ${((atCreation - 1) * 100).toFixed(1)}% off the reference, ${offMarket.length} syncs off the market, ${((atArbitrage - 1) * 100).toFixed(3)}% after the arbitrage ${(((arbitragedAt as number) - (blocks.get(info.block) as number)) / 3600).toFixed(1)} h later, ${((now - 1) * 100).toFixed(3)}% today`,
      );
    },
  );

  test("behavior: a pool created off the market is arbitraged once the arbitrageur watches it", async () => {
    const m = marketOf("bsc");
    const { chain } = m;
    const id = await snapshot(chain.rpcUrl);
    try {
      const wallet = (account: Address) =>
        createWalletClient({ account, transport: http(chain.rpcUrl, { retryCount: 0 }) });
      const send = async (account: Address, to: Address, data: `0x${string}`) => {
        const hash = await wallet(account).sendTransaction({ chain: null, to, data, gas: 5_000_000n });
        await mine(chain.rpcUrl);
        expect((await m.client.getTransactionReceipt({ hash })).status).toBe("success");
      };
      // CAKE/BUSD has no pool on the second DEX: a trader opens one with CAKE at 10x its market.
      const dex = chain.dexes[1] as DevnetChainInfo["dexes"][number];
      const trader = chain.traders[5] as Address;
      const cake = chain.tokens.CAKE as Address;
      const busd = chain.tokens.BUSD as Address;
      for (const token of [cake, busd])
        await send(
          trader,
          token,
          encodeFunctionData({
            abi: devnetTokenAbi,
            functionName: "approve",
            args: [dex.router, maxUint256],
          }),
        );
      const cakeAmount = parseEther("2000");
      const busdAmount = parseEther("50000"); // 25 USD per CAKE; the market is 2.5.
      await send(
        trader,
        dex.router,
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "addLiquidity",
          args: [cake, busd, cakeAmount, busdAmount, 0n, 0n, trader, maxUint256],
        }),
      );
      const pair = (
        await m.client.readContract({
          address: dex.factory,
          abi: parseAbi(["function getPair(address, address) view returns (address)"]),
          functionName: "getPair",
          args: [cake, busd],
        })
      ).toLowerCase() as Address;

      const token = (symbol: string): DevnetToken => ({
        symbol,
        name: symbol,
        decimals: 18,
        address: chain.tokens[symbol] as Address,
        priceE18: chain.referencePricesUsd[symbol] as bigint,
        listed: true,
        isWrappedNative: false,
      });
      const writer = createChainWriter(chain.rpcUrl);
      const mirror = createPoolMirror(writer.client);
      const arbitrageur = createArbitrageur({
        account: chain.arbitrageur,
        mirror,
        reference: {
          symbols: Object.keys(chain.referencePricesUsd),
          at: (symbol) => chain.referencePricesUsd[symbol],
        },
      });
      const now = Number((await m.client.getBlock()).timestamp);
      const spec = {
        address: pair,
        a: token("CAKE"),
        b: token("BUSD"),
        router: dex.router,
        feeBps: dex.feeBps,
      };
      expect(arbitrageur.watch(spec, now + 3600)).toBe(true);
      // Unlisted tokens have no reference: such a pool is not arbitraged.
      expect(arbitrageur.watch({ ...spec, a: { ...token("CAKE"), symbol: "MOON", listed: false } })).toBe(
        false,
      );
      await mirror.sync();
      expect(arbitrageur.plan(now)).toEqual([]);
      const [trade, ...more] = arbitrageur.plan(now + 3600);
      expect(more).toEqual([]);
      expect(trade?.path.map((t) => t.symbol)).toEqual(["CAKE", "BUSD"]);
      expect(trade?.router).toBe(dex.router);

      for (const address of [cake, busd])
        await send(
          chain.arbitrageur,
          address,
          encodeFunctionData({
            abi: devnetTokenAbi,
            functionName: "approve",
            args: [dex.router, maxUint256],
          }),
        );
      await send(
        chain.arbitrageur,
        dex.router,
        encodeFunctionData({
          abi: uniswapV2RouterAbi,
          functionName: "swapExactTokensForTokens",
          args: [trade?.amountIn as bigint, 0n, [cake, busd], chain.arbitrageur, maxUint256],
        }),
      );
      // The chain agrees with the mirror's exact math, and the pool is back at the market.
      const [r0, r1] = await m.client.readContract({
        address: pair,
        abi: uniswapV2PairAbi,
        functionName: "getReserves",
      });
      const mirrored = mirror.get(pair);
      expect([r0, r1]).toEqual([mirrored?.reserve0, mirrored?.reserve1]);
      const [cakeReserve, busdReserve] = cake < busd ? [r0, r1] : [r1, r0];
      const cakeUsd = Number((busdReserve * 10n ** 6n) / cakeReserve) / 1e6;
      expect(Math.abs(cakeUsd / 2.5 - 1)).toBeLessThan(0.001);
      await mirror.sync();
      expect(arbitrageur.plan(now + 7200)).toEqual([]);
    } finally {
      await revert(chain.rpcUrl, id);
    }
  });
});
