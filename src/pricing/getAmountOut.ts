const FEE_DENOMINATOR = 10_000n;

/**
 * Output of an exact-input swap on a Uniswap-V2-style pair, exactly as the pair contract
 * computes it (fee numerator over 10_000: 30 = Uniswap's 997/1000, 25 = Pancake's 9975/10000).
 */
export function getAmountOut(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: number,
): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const amountInWithFee = amountIn * (FEE_DENOMINATOR - BigInt(feeBps));
  return (amountInWithFee * reserveOut) / (reserveIn * FEE_DENOMINATOR + amountInWithFee);
}
