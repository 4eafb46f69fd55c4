import type { Address } from "../../src/domain/types.js";
import { searchRoutes } from "../../src/pricing/searchRoutes.js";
import type { PoolIndex, Route } from "../../src/pricing/types.js";

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

/**
 * The route search for one amount, as the pricing tests pin it (the product asks searchRoutes
 * through findQuoteRoutes, for a quote's amount and one whole token at once).
 * Best exact-input route from `sell` to `buy` over token paths of up to `maxHops` hops whose
 * intermediate tokens are distinct base tokens, across every indexed DEX; undefined when no
 * path gives a positive output.
 */
export function findBestRoute(args: FindBestRouteArgs): Route | undefined {
  const { amountIn, ...rest } = args;
  return searchRoutes({ ...rest, amounts: [amountIn] }).routes[0];
}
