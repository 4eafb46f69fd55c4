import { type Address, encodeFunctionData, type Hex } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetToken } from "../devnetTypes.js";
import { usdToUnits } from "../usdToUnits.js";
import { devnetV3RouterAbi } from "./v3Abis.js";
import { sqrtPriceX96FromUsd } from "./v3Math.js";
import type { DevnetV3Pool } from "./v3Types.js";

/** Builds the V3 swaps of the history: traders' trades and the arbitrageur's moves to the reference. */
export interface V3Swaps {
  /** A trader's swap in one pool (picked by depth); a whale takes 5-15% of the pool. */
  single(t: number, sizeFactor: number, whale: boolean): { tx: TxRequest; pool: DevnetV3Pool };
  /** A trader's swap through two pools sharing a token; undefined when there is no such route. */
  multiHop(t: number, sizeFactor: number): { tx: TxRequest; pools: DevnetV3Pool[] } | undefined;
  /**
   * The arbitrageur's swap that moves `pool` exactly to the reference price at `t`: when it was
   * `traded`, or the reference moved by its fee (0.1% at least) since its last move (else undefined).
   */
  arbitrage(pool: DevnetV3Pool, t: number, traded: boolean): TxRequest | undefined;
  /** A trade of cents to two dollars in the thin pool, at its own price (none without one). */
  thin(): TxRequest | undefined;
}

/** Options of createV3Swaps. */
export interface V3SwapsOptions {
  router: Address;
  /** The pools traders trade (the thin one left out). */
  pools: readonly DevnetV3Pool[];
  /** The tiny off-market pool, traded now and then with tiny amounts. */
  thinPool: DevnetV3Pool | undefined;
  traders: readonly Address[];
  arbitrageur: Address;
  /** USD price (10^18-scaled) of a token at a time. */
  priceOf(token: DevnetToken, t: number): bigint;
  prng: Prng;
}

// The arbitrage's price limit stops it; this only bounds what it may take.
const MAX_ARBITRAGE_IN = 10n ** 40n;
// An untraded pool is moved once its reference moved by its fee, and at least 0.1%.
const MIN_PRICE_DRIFT = 0.001;

/** Creates the swap builder over a V3 DEX's pools (through DevnetV3Router.sol). */
export function createV3Swaps(options: V3SwapsOptions): V3Swaps {
  const { router, traders, arbitrageur, priceOf, prng } = options;
  const regular = options.pools;
  const weights = regular.map((p) => Math.sqrt(Number(p.tvlUsd)));
  const routes = buildRoutes(regular);
  const call = (from: Address, gas: bigint, data: Hex): TxRequest => ({ from, to: router, gas, data });

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

  const multiHop = (t: number, sizeFactor: number): { tx: TxRequest; pools: DevnetV3Pool[] } | undefined => {
    if (routes.length === 0) return undefined;
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

  // The price each pool was last moved to: untraded since, it is still there.
  const lastTarget = new Map<DevnetV3Pool, bigint>();
  const arbitrage = (pool: DevnetV3Pool, t: number, traded: boolean): TxRequest | undefined => {
    const target = sqrtPriceX96FromUsd(
      priceOf(pool.token0, t),
      pool.token0.decimals,
      priceOf(pool.token1, t),
      pool.token1.decimals,
    );
    const last = lastTarget.get(pool);
    const drift = last === undefined ? 1 : Math.abs(Number(target) / Number(last) - 1);
    // A pool's fee is its no-arbitrage band (as the V2 pools' is): a sqrt price off by half of it.
    if (!traded && drift < Math.max(pool.fee / 1e6, MIN_PRICE_DRIFT) / 2) return undefined;
    lastTarget.set(pool, target);
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "swapToPrice",
      args: [pool.address, target, MAX_ARBITRAGE_IN],
    });
    return call(arbitrageur, 3_000_000n, data);
  };

  const thin = (): TxRequest | undefined => {
    const pool = options.thinPool;
    if (pool?.offMarket === undefined) return undefined;
    const zeroForOne = prng.chance(0.5);
    const [tokenIn, price] = zeroForOne
      ? [pool.token0, pool.offMarket.price0E18]
      : [pool.token1, pool.offMarket.price1E18];
    const amountIn = usdToUnits(toE18(0.2 + 1.8 * prng.next()), price, tokenIn.decimals) + 1n;
    const trader = prng.pick(traders);
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "exactInputSingle",
      args: [pool.address, zeroForOne, amountIn, 0n, trader, 0n],
    });
    return call(trader, 1_000_000n, data);
  };

  return { single, multiHop, arbitrage, thin };
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
