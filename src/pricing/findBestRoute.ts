import type { Address } from "../domain/types.js";
import { getAmountOut } from "./getAmountOut.js";
import type { PoolIndex, Route, RouteHop } from "./types.js";

const PPM = 1_000_000n;

/** Arguments of findBestRoute. */
export interface FindBestRouteArgs {
  index: PoolIndex;
  /** Wrapped native address for the native coin: the caller maps "" before calling. */
  sell: Address;
  buy: Address;
  amountIn: bigint;
  /** Tokens a route may pass through. */
  baseTokens: ReadonlySet<Address>;
  /** 1 to 3 (default 3). */
  maxHops?: number;
}

// The pool of a fixed hop that gives the most output. Picking the best pool per hop is optimal
// for a fixed token path because every hop's output grows with its input.
function bestHop(
  index: PoolIndex,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
): RouteHop | undefined {
  let best: RouteHop | undefined;
  for (const pool of index.poolsBetween(tokenIn, tokenOut)) {
    const zeroForOne = pool.token0 === tokenIn;
    const reserveIn = zeroForOne ? pool.reserve0 : pool.reserve1;
    const reserveOut = zeroForOne ? pool.reserve1 : pool.reserve0;
    const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, pool.feeBps);
    if (amountOut > 0n && (best === undefined || amountOut > best.amountOut)) {
      best = { pool, tokenIn, tokenOut, amountIn, amountOut };
    }
  }
  return best;
}

function reservesOf(hop: RouteHop): { reserveIn: bigint; reserveOut: bigint } {
  const zeroForOne = hop.pool.token0 === hop.tokenIn;
  return {
    reserveIn: zeroForOne ? hop.pool.reserve0 : hop.pool.reserve1,
    reserveOut: zeroForOne ? hop.pool.reserve1 : hop.pool.reserve0,
  };
}

/**
 * Price impact in ppm: 1 - executed / mid, where the mid output is amountIn times the product
 * of the hops' reserve ratios (fees excluded, so the fee counts as impact, as Uniswap's SDK does).
 */
export function computePriceImpactPpm(
  hops: readonly RouteHop[],
  amountIn: bigint,
  amountOut: bigint,
): bigint {
  let productIn = 1n;
  let productOut = 1n;
  for (const hop of hops) {
    const { reserveIn, reserveOut } = reservesOf(hop);
    productIn *= reserveIn;
    productOut *= reserveOut;
  }
  const midOut = amountIn * productOut;
  if (midOut === 0n) return 0n;
  const impact = ((midOut - amountOut * productIn) * PPM) / midOut;
  return impact < 0n ? 0n : impact;
}

/**
 * Best exact-input route from `sell` to `buy` over token paths of up to `maxHops` hops whose
 * intermediate tokens are distinct base tokens, across every indexed DEX; undefined when no
 * path gives a positive output.
 */
export function findBestRoute(args: FindBestRouteArgs): Route | undefined {
  const { index, sell, buy, amountIn, baseTokens } = args;
  const maxHops = Math.max(1, Math.min(3, args.maxHops ?? 3));
  if (amountIn <= 0n || sell === buy) return undefined;

  const intermediates = [...baseTokens].filter((t) => t !== sell && t !== buy);
  let best: RouteHop[] | undefined;
  let bestOut = 0n;

  // Depth-first over paths; a prefix's hops are computed once and shared by its extensions.
  const hops: RouteHop[] = [];
  const visit = (token: Address, amount: bigint, used: ReadonlySet<Address>): void => {
    const last = bestHop(index, token, buy, amount);
    if (last !== undefined && last.amountOut > bestOut) {
      bestOut = last.amountOut;
      best = [...hops, last];
    }
    if (hops.length + 1 >= maxHops) return;
    for (const next of intermediates) {
      if (used.has(next)) continue;
      const hop = bestHop(index, token, next, amount);
      if (hop === undefined) continue;
      hops.push(hop);
      visit(next, hop.amountOut, new Set([...used, next]));
      hops.pop();
    }
  };
  visit(sell, amountIn, new Set([sell]));

  const found: RouteHop[] | undefined = best;
  if (found === undefined) return undefined;
  return {
    path: [sell, ...found.map((hop) => hop.tokenOut)],
    hops: found,
    amountIn,
    amountOut: bestOut,
    priceImpactPpm: computePriceImpactPpm(found, amountIn, bestOut),
  };
}
