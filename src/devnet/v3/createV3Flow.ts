import { type Address, encodeFunctionData, type Hash, maxUint128 } from "viem";
import type { ChainWriter, TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetToken } from "../devnetTypes.js";
import type { ReferencePrices } from "../market/createReferencePrices.js";
import { usdToUnits } from "../usdToUnits.js";
import { liquidityForUsd, type RangeShape, rangeTicks } from "./planV3Positions.js";
import { devnetV3RouterAbi, v3PoolAbi } from "./v3Abis.js";
import { sqrtPriceX96FromUsd } from "./v3Math.js";
import type { DevnetV3, DevnetV3Pool, DevnetV3Position } from "./v3Types.js";

/** What the V3 flow put on the chain. */
export interface V3HistorySummary {
  /** Traders' swaps through one pool. */
  singleSwaps: number;
  /** Traders' swaps through two pools in one transaction. */
  multiHopSwaps: number;
  /** Of the single swaps, the big ones that cross ticks. */
  whaleSwaps: number;
  /** The arbitrageur's swaps to the reference price (a no-op when the pool is there already). */
  arbitrageSwaps: number;
  mints: number;
  /** Positions burned and collected (two transactions each). */
  burns: number;
}

/** The V3 pools' trading: traders' swaps, arbitrage to the reference and positions coming and going. */
export interface V3Flow {
  /** The V3 transactions of a block at `timestamp` with `trades` traders' trades (about 15% of them V3). */
  plan(timestamp: number, trades: number, sizeFactor?: number): TxRequest[];
  /** Keeps the hashes of `plan`'s transactions once sent, for `assertSucceeded`. */
  track(sent: readonly Hash[]): void;
  /** Throws when any V3 transaction sent so far reverted. */
  assertSucceeded(writer: ChainWriter): Promise<void>;
  readonly summary: V3HistorySummary;
}

/** Options of a V3 flow. */
export interface V3FlowOptions {
  v3: DevnetV3;
  traders: readonly Address[];
  /** Owners of the positions opened and closed during the history. */
  providers: readonly Address[];
  arbitrageur: Address;
  reference: ReferencePrices;
  prng: Prng;
  /** Share of the traders' trades sent through V3 pools (default 0.15). */
  share?: number;
}

const MULTI_HOP_SHARE = 0.2;
const WHALE_SHARE = 0.08;
const MINT_CHANCE = 0.06;
const BURN_CHANCE = 0.05;
// Every this many blocks every pool is arbitraged (the reference drifts); else only traded ones.
const FULL_ARBITRAGE_EVERY = 12;
const MAX_ARBITRAGE_IN = 10n ** 40n;
const NARROW: RangeShape = { below: 0.01, above: 0.01 };
const MEDIUM: RangeShape = { below: 0.06, above: 0.04 };

/**
 * Creates the V3 flow over a deployed V3 DEX. A block's V3 trades are single-pool swaps sized like
 * the V2 market's (a few are whales taking 5-15% of a pool, which cross its narrow positions'
 * ticks) and two-pool routes; the arbitrageur then moves each traded pool exactly to the
 * reference price (a swap whose price limit is the target), and every pool now and then; now and
 * then a provider opens a position near the price, or closes one opened earlier (burn, collect).
 */
export function createV3Flow(options: V3FlowOptions): V3Flow {
  const { v3, traders, providers, arbitrageur, reference, prng } = options;
  const share = options.share ?? 0.15;
  const regular = v3.pools.filter((p) => !p.thin);
  const weights = regular.map((p) => Math.sqrt(Number(p.tvlUsd)));
  const routes = buildRoutes(regular);
  // Positions opened during the history, with the block (of this flow) that opened them.
  const open: (DevnetV3Position & { openedIn: number })[] = [];
  const hashes: Hash[] = [];
  let blocks = 0;
  const summary: V3HistorySummary = {
    singleSwaps: 0,
    multiHopSwaps: 0,
    whaleSwaps: 0,
    arbitrageSwaps: 0,
    mints: 0,
    burns: 0,
  };
  const priceOf = (token: DevnetToken, t: number) => reference.at(token.symbol, t) ?? token.priceE18;
  const call = (from: Address, gas: bigint, data: `0x${string}`, to: Address = v3.router): TxRequest => ({
    from,
    to,
    gas,
    data,
  });

  const single = (t: number, sizeFactor: number, whale: boolean): { tx: TxRequest; pool: DevnetV3Pool } => {
    const pool = regular[prng.weighted(weights)] as DevnetV3Pool;
    const zeroForOne = prng.chance(0.5);
    const tokenIn = zeroForOne ? pool.token0 : pool.token1;
    const usd = whale ? Number(pool.tvlUsd) * (0.05 + 0.1 * prng.next()) : sizeUsd(prng, sizeFactor, pool);
    const amountIn = usdToUnits(toE18(usd), priceOf(tokenIn, t), tokenIn.decimals) + 1n;
    const trader = prng.pick(traders);
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "exactInputSingle",
      args: [pool.address, zeroForOne, amountIn, 0n, trader, 0n],
    });
    return { tx: call(trader, whale ? 3_000_000n : 1_000_000n, data), pool };
  };

  const multiHop = (t: number, sizeFactor: number): { tx: TxRequest; pools: DevnetV3Pool[] } => {
    const route = prng.pick(routes);
    const forward = prng.chance(0.5);
    const pools = forward ? route.pools : [...route.pools].reverse();
    const tokenIn = forward ? route.tokenIn : route.tokenOut;
    const usd = Math.min(...pools.map((p) => sizeUsd(prng, sizeFactor, p)));
    const amountIn = usdToUnits(toE18(usd), priceOf(tokenIn, t), tokenIn.decimals) + 1n;
    const trader = prng.pick(traders);
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "exactInput",
      args: [pools.map((p) => p.address), tokenIn.address, amountIn, 0n, trader],
    });
    return { tx: call(trader, 2_000_000n, data), pools };
  };

  const arbitrage = (pool: DevnetV3Pool, t: number): TxRequest => {
    const target = sqrtPriceX96FromUsd(
      priceOf(pool.token0, t),
      pool.token0.decimals,
      priceOf(pool.token1, t),
      pool.token1.decimals,
    );
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "swapToPrice",
      args: [pool.address, target, MAX_ARBITRAGE_IN],
    });
    return call(arbitrageur, 3_000_000n, data);
  };

  const mint = (t: number): TxRequest | undefined => {
    const pool = regular[prng.weighted(weights)] as DevnetV3Pool;
    const prices = { price0E18: priceOf(pool.token0, t), price1E18: priceOf(pool.token1, t) };
    const sqrtPriceX96 = sqrtPriceX96FromUsd(
      prices.price0E18,
      pool.token0.decimals,
      prices.price1E18,
      pool.token1.decimals,
    );
    const ticks = rangeTicks(sqrtPriceX96, pool.tickSpacing, prng.chance(0.5) ? NARROW : MEDIUM);
    const usd = Math.min(Number(pool.tvlUsd) * 0.05, 20_000 + 180_000 * prng.next());
    const { liquidity } = liquidityForUsd(pool, prices, sqrtPriceX96, ticks, toE18(usd));
    if (liquidity === 0n) return undefined;
    const owner = prng.pick(providers);
    open.push({
      owner,
      pool: pool.address,
      tickLower: ticks[0],
      tickUpper: ticks[1],
      liquidity,
      openedIn: blocks,
    });
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "mint",
      args: [pool.address, owner, ticks[0], ticks[1], liquidity],
    });
    return call(owner, 1_000_000n, data);
  };

  const burn = (): TxRequest[] => {
    // Not one opened in this very block: its mint comes after the burn in the block's order.
    const closable = open.filter((p) => p.openedIn < blocks);
    if (closable.length === 0) return [];
    const position = prng.pick(closable);
    open.splice(open.indexOf(position), 1);
    const { owner, pool, tickLower, tickUpper, liquidity } = position;
    return [
      call(
        owner,
        600_000n,
        encodeFunctionData({ abi: v3PoolAbi, functionName: "burn", args: [tickLower, tickUpper, liquidity] }),
        pool,
      ),
      call(
        owner,
        300_000n,
        encodeFunctionData({
          abi: v3PoolAbi,
          functionName: "collect",
          args: [owner, tickLower, tickUpper, maxUint128, maxUint128],
        }),
        pool,
      ),
    ];
  };

  return {
    summary,
    plan(timestamp, trades, sizeFactor = 1) {
      const txs: TxRequest[] = [];
      const touched = new Set<DevnetV3Pool>();
      let count = 0;
      for (let i = 0; i < trades; i++) if (prng.chance(share)) count++;
      for (let i = 0; i < count; i++) {
        if (routes.length > 0 && prng.chance(MULTI_HOP_SHARE)) {
          const { tx, pools } = multiHop(timestamp, sizeFactor);
          txs.push(tx);
          for (const pool of pools) touched.add(pool);
          summary.multiHopSwaps++;
        } else {
          const whale = prng.chance(WHALE_SHARE);
          const { tx, pool } = single(timestamp, sizeFactor, whale);
          txs.push(tx);
          touched.add(pool);
          summary.singleSwaps++;
          if (whale) summary.whaleSwaps++;
        }
      }
      // Even a short history opens a position (its second block) and closes one (its fourth).
      if (prng.chance(BURN_CHANCE) || blocks === 3) {
        const closing = burn();
        if (closing.length > 0) summary.burns++;
        txs.push(...closing);
      }
      if (prng.chance(MINT_CHANCE) || blocks === 1) {
        const opening = mint(timestamp);
        if (opening !== undefined) {
          txs.push(opening);
          summary.mints++;
        }
      }
      const arbitraged =
        blocks++ % FULL_ARBITRAGE_EVERY === 0 ? regular : regular.filter((p) => touched.has(p));
      for (const pool of arbitraged) txs.push(arbitrage(pool, timestamp));
      summary.arbitrageSwaps += arbitraged.length;
      return txs;
    },
    track(sent) {
      hashes.push(...sent);
    },
    async assertSucceeded(writer) {
      await writer.assertSucceeded(hashes);
    },
  };
}

/** Two-pool routes: pools of different pairs that share one token (USDT -> WBNB -> ETH). */
function buildRoutes(
  pools: readonly DevnetV3Pool[],
): { pools: DevnetV3Pool[]; tokenIn: DevnetToken; tokenOut: DevnetToken }[] {
  const routes: { pools: DevnetV3Pool[]; tokenIn: DevnetToken; tokenOut: DevnetToken }[] = [];
  pools.forEach((first, i) => {
    for (const second of pools.slice(i + 1)) {
      const firstTokens = [first.token0, first.token1];
      const shared = firstTokens.find((t) => t === second.token0 || t === second.token1);
      const tokenIn = firstTokens.find((t) => t !== shared);
      const tokenOut = [second.token0, second.token1].find((t) => t !== shared);
      if (shared === undefined || tokenIn === undefined || tokenOut === undefined || tokenIn === tokenOut)
        continue;
      routes.push({ pools: [first, second], tokenIn, tokenOut });
    }
  });
  return routes;
}

/** Log-normal trade size around a few hundred dollars, at most 1.5% of the pool. */
function sizeUsd(prng: Prng, factor: number, pool: DevnetV3Pool): number {
  const usd = Math.exp(Math.log(600) + 1.3 * prng.normal()) * factor;
  return Math.max(5, Math.min(usd, Number(pool.tvlUsd) * 0.015));
}

function toE18(usd: number): bigint {
  return BigInt(Math.max(1, Math.round(usd * 1e6))) * 10n ** 12n;
}
