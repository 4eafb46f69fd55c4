import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./getSqrtRatioAtTick.js";

/**
 * TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is at or below `sqrtPriceX96`,
 * by the contract's own log2 approximation (14 fractional bits, then a check of the two ticks it
 * can be), so the tick a swap leaves behind is the pool's. Throws (R) outside
 * [MIN_SQRT_RATIO, MAX_SQRT_RATIO).
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new Error(`getTickAtSqrtRatio: sqrt price ${sqrtPriceX96} is out of range (R)`);
  }
  const ratio = sqrtPriceX96 << 32n;
  const msb = BigInt(ratio.toString(2).length - 1);
  let r = msb >= 128n ? ratio >> (msb - 127n) : ratio << (127n - msb);
  // Integer part of log2(ratio) minus 128 (the Q128.128 point), then 14 bits of fraction.
  let log2 = (msb - 128n) << 64n;
  for (let bit = 63n; bit >= 50n; bit--) {
    r = (r * r) >> 127n;
    const f = r >> 128n;
    // The integer part's low 64 bits are zero: adding the bit is the contract's `or`.
    log2 += f << bit;
    r >>= f;
  }
  const logSqrt10001 = log2 * 255738958999603826347141n;
  // `>>` on a bigint floors like Solidity's arithmetic shift of an int256.
  const tickLow = Number((logSqrt10001 - 3402992956809132418596140100660247210n) >> 128n);
  const tickHigh = Number((logSqrt10001 + 291339464771989622907027621153398088495n) >> 128n);
  if (tickLow === tickHigh) return tickLow;
  return getSqrtRatioAtTick(tickHigh) <= sqrtPriceX96 ? tickHigh : tickLow;
}
