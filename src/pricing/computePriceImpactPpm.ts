import type { RouteHop } from "./types.js";

const PPM = 1_000_000n;

function reservesOf(hop: RouteHop): { reserveIn: bigint; reserveOut: bigint } {
  const zeroForOne = hop.pool.token0 === hop.tokenIn;
  return {
    reserveIn: zeroForOne ? hop.pool.reserve0 : hop.pool.reserve1,
    reserveOut: zeroForOne ? hop.pool.reserve1 : hop.pool.reserve0,
  };
}

/**
 * Price impact in ppm: 1 - executed / mid, where the mid output is amountIn times the product
 * of the hops' reserve ratios (fees excluded, so the fee counts as impact, as Uniswap's SDK does).
 */
export function computePriceImpactPpm(
  hops: readonly RouteHop[],
  amountIn: bigint,
  amountOut: bigint,
): bigint {
  let productIn = 1n;
  let productOut = 1n;
  for (const hop of hops) {
    const { reserveIn, reserveOut } = reservesOf(hop);
    productIn *= reserveIn;
    productOut *= reserveOut;
  }
  const midOut = amountIn * productOut;
  if (midOut === 0n) return 0n;
  const impact = ((midOut - amountOut * productIn) * PPM) / midOut;
  return impact < 0n ? 0n : impact;
}
