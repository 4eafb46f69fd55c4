/**
 * The reserves a V2 pair would need for the depth a V3 pool has at its price: reserve0 =
 * L·2^96/√P and reserve1 = L·√P/2^96 (floored). Their ratio is the pool's price and their
 * product L², so the pricing graph can weigh a V3 pool like a pair; exact within the current
 * tick range only.
 */
export function v3VirtualReserves(
  sqrtPriceX96: bigint,
  liquidity: bigint,
): [reserve0: bigint, reserve1: bigint] {
  if (sqrtPriceX96 <= 0n || liquidity <= 0n) return [0n, 0n];
  return [(liquidity << 96n) / sqrtPriceX96, (liquidity * sqrtPriceX96) >> 96n];
}
