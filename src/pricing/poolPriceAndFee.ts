import type { PoolState } from "./types.js";

const PPM = 1_000_000n;
const Q192 = 1n << 192n;

/**
 * The pool's price as a ratio of smallest units (token1 per token0) and its fee as a fraction:
 * a V2 pair's reserves and fee in basis points, a V3 pool's sqrtPriceX96 and fee in pips.
 * Undefined for an empty pool.
 */
export function poolPriceAndFee(
  pool: PoolState,
): { num: bigint; den: bigint; fee: bigint; feeDen: bigint } | undefined {
  if (pool.v3 !== undefined && pool.v3State !== undefined) {
    const sqrt = pool.v3State.sqrtPriceX96;
    if (sqrt === 0n) return undefined;
    return { num: sqrt * sqrt, den: Q192, fee: BigInt(pool.v3.fee), feeDen: PPM };
  }
  if (pool.reserve0 <= 0n || pool.reserve1 <= 0n) return undefined;
  return { num: pool.reserve1, den: pool.reserve0, fee: BigInt(pool.feeBps), feeDen: 10_000n };
}
