const FEE_DENOMINATOR = 10_000n;

/**
 * Output of an exact-input swap on a Uniswap-V2-style pair, exactly as the pair contract
 * computes it (fee numerator over 10_000). The devnet's own copy of src/pricing/getAmountOut.ts
 * (it imports nothing from the product); test/devnet/productContract.test.ts checks the two agree.
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
