const TWO_128 = 1n << 128n;

/**
 * LiquidityMath.addDelta: a uint128 liquidity plus a signed int128 change, throwing where the
 * contract reverts (LS: below zero, LA: above uint128).
 */
export function addDelta(liquidity: bigint, delta: bigint): bigint {
  const result = liquidity + delta;
  if (result < 0n) throw new Error("addDelta: liquidity would go below zero (LS)");
  if (result >= TWO_128) throw new Error("addDelta: liquidity would overflow uint128 (LA)");
  return result;
}
