import { type Address, encodeFunctionData, type Hex, maxUint128 } from "viem";
import type { TxRequest } from "../anvil/createChainWriter.js";
import type { Prng } from "../createPrng.js";
import type { DevnetToken } from "../devnetTypes.js";
import { liquidityForUsd, type RangeShape, rangeTicks } from "./planV3Positions.js";
import { devnetV3RouterAbi, v3PoolAbi } from "./v3Abis.js";
import { sqrtPriceX96FromUsd } from "./v3Math.js";
import type { DevnetV3Pool, DevnetV3Position } from "./v3Types.js";

/** Opens positions near the price during the history and closes earlier ones. */
export interface V3Positions {
  /** A provider's new position (narrow or medium) near the reference price at `t`, in block `block`. */
  mint(t: number, block: number): TxRequest | undefined;
  /** Burn and collect of a position opened before `block` by its owner (none: empty). */
  burn(block: number): TxRequest[];
}

/** Options of createV3Positions. */
export interface V3PositionsOptions {
  router: Address;
  pools: readonly DevnetV3Pool[];
  providers: readonly Address[];
  priceOf(token: DevnetToken, t: number): bigint;
  prng: Prng;
}

const NARROW: RangeShape = { below: 0.01, above: 0.01 };
const MEDIUM: RangeShape = { below: 0.06, above: 0.04 };

/** Creates the position builder: mints go through DevnetV3Router.sol, burns and collects to the pool. */
export function createV3Positions(options: V3PositionsOptions): V3Positions {
  const { router, providers, priceOf, prng } = options;
  const regular = options.pools;
  const weights = regular.map((p) => Math.sqrt(Number(p.tvlUsd)));
  // Positions opened during the history, with the block that opened them.
  const open: (DevnetV3Position & { openedIn: number })[] = [];
  const call = (from: Address, gas: bigint, data: Hex, to: Address = router): TxRequest => ({
    from,
    to,
    gas,
    data,
  });

  const mint = (t: number, block: number): TxRequest | undefined => {
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
      openedIn: block,
    });
    const data = encodeFunctionData({
      abi: devnetV3RouterAbi,
      functionName: "mint",
      args: [pool.address, owner, ticks[0], ticks[1], liquidity],
    });
    return call(owner, 1_000_000n, data);
  };

  const burn = (block: number): TxRequest[] => {
    // Not one opened in this very block: its mint comes after the burn in the block's order.
    const closable = open.filter((p) => p.openedIn < block);
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

  return { mint, burn };
}

function toE18(usd: number): bigint {
  return BigInt(Math.max(1, Math.round(usd * 1e6))) * 10n ** 12n;
}
