import type { Address } from "../domain/types.js";
import { searchRoutes } from "./searchRoutes.js";
import type { PoolIndex, Route } from "./types.js";

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
 * Best exact-input route from `sell` to `buy` over token paths of up to `maxHops` hops whose
 * intermediate tokens are distinct base tokens, across every indexed DEX; undefined when no
 * path gives a positive output.
 */
export function findBestRoute(args: FindBestRouteArgs): Route | undefined {
  const { amountIn, ...rest } = args;
  return searchRoutes({ ...rest, amounts: [amountIn] }).routes[0];
}
