const Q96 = 1n << 96n;

/**
 * The virtual reserves of a V3 pool's active liquidity at its price: x = L / sqrt(P),
 * y = L * sqrt(P), with sqrt(P) in Q64.96. Their ratio is the pool's price and their size what
 * the liquidity in range is worth there; liquidity outside the current range counts for nothing
 * (a pool is weighed by what a trade at the price can use). [0, 0] before the pool has a price.
 */
export function v3VirtualReserves(sqrtPriceX96: bigint, liquidity: bigint): [bigint, bigint] {
  if (sqrtPriceX96 === 0n || liquidity === 0n) return [0n, 0n];
  return [(liquidity * Q96) / sqrtPriceX96, (liquidity * sqrtPriceX96) / Q96];
}
