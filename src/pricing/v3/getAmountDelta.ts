import { divRoundingUp, mulDiv, mulDivRoundingUp } from "./mulDiv.js";

const Q96 = 1n << 96n;

/**
 * SqrtPriceMath.getAmount0Delta: token0 between two sqrt prices for `liquidity`,
 * L·2^96·(√B − √A) / √B / √A, rounded up (what a pool asks) or down (what it pays).
 */
export function getAmount0Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const [lower, upper] =
    sqrtRatioAX96 > sqrtRatioBX96 ? [sqrtRatioBX96, sqrtRatioAX96] : [sqrtRatioAX96, sqrtRatioBX96];
  if (lower <= 0n) throw new Error("getAmount0Delta: zero sqrt price");
  const numerator1 = liquidity << 96n;
  const numerator2 = upper - lower;
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower)
    : mulDiv(numerator1, numerator2, upper) / lower;
}

/** SqrtPriceMath.getAmount1Delta: token1 between two sqrt prices, L·(√B − √A) / 2^96. */
export function getAmount1Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const difference =
    sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96;
  return roundUp ? mulDivRoundingUp(liquidity, difference, Q96) : mulDiv(liquidity, difference, Q96);
}
