import { MAX_TICK, MIN_TICK } from "./getSqrtRatioAtTick.js";

// The pools' own TickMath (the devnet's port, checked against the indexer's in the tests).
export { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "./getSqrtRatioAtTick.js";

/**
 * 2^96: V3 prices are square roots in Q64.96 fixed point.
 * @internal exported for the V3 math tests.
 */
export const Q96 = 1n << 96n;

/**
 * Integer square root (floor).
 * @internal exported for tests, which call this step alone.
 */
export function sqrtBigint(value: bigint): bigint {
  if (value < 0n) throw new Error("v3: square root of a negative number");
  if (value < 2n) return value;
  // Newton's method from above (the float estimate is only close): it falls to floor(sqrt).
  let x = BigInt(Math.ceil(Math.sqrt(Number(value)))) + 1n;
  while (x * x < value) x *= 2n;
  let y = (x + value / x) >> 1n;
  while (y < x) {
    x = y;
    y = (x + value / x) >> 1n;
  }
  return x;
}

/**
 * The sqrt price (Q64.96) of token0 in token1's smallest units, from both tokens' USD prices
 * (10^18-scaled) and decimals: what a pool opened "at the market" is initialized with.
 */
export function sqrtPriceX96FromUsd(
  price0E18: bigint,
  decimals0: number,
  price1E18: bigint,
  decimals1: number,
): bigint {
  const ratioX192 =
    (price0E18 * 10n ** BigInt(decimals1) * (1n << 192n)) / (price1E18 * 10n ** BigInt(decimals0));
  return sqrtBigint(ratioX192);
}

/** The tick whose price is at or just below a sqrt price (to a tick's precision: for picking ranges). */
export function tickAtSqrtPrice(sqrtPriceX96: bigint): number {
  const sqrt = Number(sqrtPriceX96) / Number(Q96);
  const tick = Math.floor((2 * Math.log(sqrt)) / Math.log(1.0001));
  return Math.max(MIN_TICK, Math.min(MAX_TICK, tick));
}

/** Rounds a tick down to a multiple of the spacing, inside the usable range. */
export function alignTick(tick: number, spacing: number): number {
  const lowest = Math.ceil(MIN_TICK / spacing) * spacing;
  const highest = Math.floor(MAX_TICK / spacing) * spacing;
  return Math.max(lowest, Math.min(highest, Math.floor(tick / spacing) * spacing));
}

/** The token amounts `liquidity` in [sqrtA, sqrtB) holds at price `sqrtP` (rounded down). */
export function amountsForLiquidity(
  sqrtP: bigint,
  sqrtA: bigint,
  sqrtB: bigint,
  liquidity: bigint,
): [bigint, bigint] {
  const [lower, upper] = sqrtA < sqrtB ? [sqrtA, sqrtB] : [sqrtB, sqrtA];
  const amount0Between = (from: bigint) => (liquidity * Q96 * (upper - from)) / (upper * from);
  if (sqrtP <= lower) return [amount0Between(lower), 0n];
  if (sqrtP >= upper) return [0n, (liquidity * (upper - lower)) / Q96];
  return [amount0Between(sqrtP), (liquidity * (sqrtP - lower)) / Q96];
}
