import type { Address } from "../domain/types.js";
import { computePriceImpactPpm } from "./computePriceImpactPpm.js";
import { poolAmountOut, poolAmountOutBound } from "./poolAmountOut.js";
import type { PoolIndex, Route, RouteHop } from "./types.js";

/** Arguments of searchRoutes. */
export interface SearchRoutesArgs {
  index: PoolIndex;
  /** Wrapped native address for the native coin: the caller maps "" before calling. */
  sell: Address;
  buy: Address;
  /** Input amounts priced in the one search: each gets its own best route. */
  amounts: readonly bigint[];
  /**
   * An amount priced only while the first of `amounts` has found no route: whether pools connect
   * the tokens at all when that amount's output rounds down to nothing.
   */
  fallback?: bigint;
  /** Tokens a route may pass through. */
  baseTokens: ReadonlySet<Address>;
  /** 1 to 3 (default 3). */
  maxHops?: number;
}

/** What searchRoutes found: a route per amount (undefined: no positive output), and the fallback's. */
export interface RouteSearch {
  routes: (Route | undefined)[];
  fallback: Route | undefined;
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
    // A V3 pool whose best case cannot beat the best so far is not walked (ties go to the first).
    const bound = best === undefined ? undefined : poolAmountOutBound(pool, zeroForOne, amountIn);
    if (bound !== undefined && best !== undefined && bound <= best.amountOut) continue;
    const amountOut = poolAmountOut(pool, zeroForOne, amountIn);
    if (amountOut > 0n && (best === undefined || amountOut > best.amountOut)) {
      best = { pool, tokenIn, tokenOut, amountIn, amountOut };
    }
  }
  return best;
}

/**
 * Best exact-input routes from `sell` to `buy` for several input amounts at once, over token
 * paths of up to `maxHops` hops whose intermediate tokens are distinct base tokens, across every
 * indexed DEX: one walk of the paths, each amount carried along its own best pools (the best
 * pool of a hop depends on the amount). Each amount's route is the one a search for it alone
 * finds (same path order, same tie-breaking).
 */
export function searchRoutes(args: SearchRoutesArgs): RouteSearch {
  const { index, sell, buy, baseTokens } = args;
  const maxHops = Math.max(1, Math.min(3, args.maxHops ?? 3));
  const amounts = args.fallback === undefined ? [...args.amounts] : [...args.amounts, args.fallback];
  const fallbackAt = args.fallback === undefined ? -1 : amounts.length - 1;
  const best: (RouteHop[] | undefined)[] = amounts.map(() => undefined);
  const bestOut = amounts.map(() => 0n);
  if (sell !== buy) {
    const intermediates = [...baseTokens].filter((t) => t !== sell && t !== buy);
    // The fallback is only wanted while the first amount has no route.
    const wanted = (i: number) => i !== fallbackAt || best[0] === undefined;
    // Depth-first over paths; a prefix's hops are computed once and shared by its extensions.
    // hops[i] is amount i's path so far; a dead amount (no output on the prefix) is undefined.
    const visit = (
      token: Address,
      flowing: (bigint | undefined)[],
      hops: RouteHop[][],
      used: ReadonlySet<Address>,
    ): void => {
      for (let i = 0; i < amounts.length; i++) {
        const amount = flowing[i];
        if (amount === undefined || !wanted(i)) continue;
        const last = bestHop(index, token, buy, amount);
        if (last !== undefined && last.amountOut > bestOut[i]!) {
          bestOut[i] = last.amountOut;
          best[i] = [...hops[i]!, last];
        }
      }
      if (used.size >= maxHops) return;
      for (const next of intermediates) {
        if (used.has(next)) continue;
        const stepped = flowing.map((amount, i) =>
          amount === undefined || !wanted(i) ? undefined : bestHop(index, token, next, amount),
        );
        if (stepped.every((hop) => hop === undefined)) continue;
        visit(
          next,
          stepped.map((hop) => hop?.amountOut),
          hops.map((path, i) => (stepped[i] === undefined ? path : [...path, stepped[i]!])),
          new Set([...used, next]),
        );
      }
    };
    visit(
      sell,
      amounts.map((amount) => (amount > 0n ? amount : undefined)),
      amounts.map(() => []),
      new Set([sell]),
    );
  }
  const routeOf = (i: number): Route | undefined => {
    const found = best[i];
    if (found === undefined) return undefined;
    return {
      path: [sell, ...found.map((hop) => hop.tokenOut)],
      hops: found,
      amountIn: amounts[i]!,
      amountOut: bestOut[i]!,
      priceImpactPpm: computePriceImpactPpm(found, amounts[i]!, bestOut[i]!),
    };
  };
  return {
    routes: args.amounts.map((_, i) => routeOf(i)),
    fallback: fallbackAt < 0 ? undefined : routeOf(fallbackAt),
  };
}
