import type { Address } from "../domain/types.js";
import { searchRoutes } from "./searchRoutes.js";
import type { PoolIndex, Route } from "./types.js";

/** Arguments of findQuoteRoutes. */
export interface FindQuoteRoutesArgs {
  index: PoolIndex;
  /** Wrapped native address for the native coin: the caller maps "" before calling. */
  sell: Address;
  buy: Address;
  /** The amount quoted. */
  amountIn: bigint;
  /** One whole sell token: the amount the price is of. */
  unitAmount: bigint;
  /** Tokens a route may pass through. */
  baseTokens: ReadonlySet<Address>;
  /** 1 to 3 (default 3). */
  maxHops?: number;
}

/**
 * What a quote needs of the pool graph, an expected outcome each: the route of the amount (and
 * of one whole token, for the price); pools that connect the tokens but give the amount nothing
 * (its output rounds down to 0: a price of "0", with the route a reserve-sized amount takes);
 * or no route at all.
 */
export type QuoteRoutes =
  | { kind: "route"; route: Route; unitRoute: Route | undefined }
  | { kind: "noOutput"; probe: Route; unitRoute: Route | undefined }
  | { kind: "noRoute" };

// Uniswap V2 reserves are uint112: selling this much through any pool with liquidity yields something.
const PROBE_AMOUNT = 2n ** 112n;

/** Finds a quote's routes in one search of the pool graph (searchRoutes: every amount at once). */
export function findQuoteRoutes(args: FindQuoteRoutesArgs): QuoteRoutes {
  const { amountIn, unitAmount, ...rest } = args;
  const same = amountIn === unitAmount;
  const { routes, fallback } = searchRoutes({
    ...rest,
    amounts: same ? [amountIn] : [amountIn, unitAmount],
    fallback: PROBE_AMOUNT,
  });
  const [route, unit] = routes;
  const unitRoute = same ? route : unit;
  if (route !== undefined) return { kind: "route", route, unitRoute };
  if (fallback !== undefined) return { kind: "noOutput", probe: fallback, unitRoute };
  return { kind: "noRoute" };
}
