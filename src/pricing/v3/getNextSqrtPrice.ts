import { divRoundingUp, mulDiv, mulDivRoundingUp, TWO_256 } from "./mulDiv.js";

const Q96 = 1n << 96n;
const TWO_160 = 1n << 160n;

function toUint160(value: bigint): bigint {
  if (value >= TWO_160) throw new Error("SqrtPriceMath: price overflows uint160");
  return value;
}

/**
 * SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp. The contract takes the precise path only
 * when amount·√P and L·2^96 + amount·√P fit 256 bits and otherwise divides in another order:
 * the two round differently, so the overflow tests are reproduced, not skipped.
 */
function nextFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96;
  if (add) {
    if (product < TWO_256 && numerator1 + product < TWO_256) {
      return mulDivRoundingUp(numerator1, sqrtPX96, numerator1 + product);
    }
    const sum = numerator1 / sqrtPX96 + amount;
    if (sum >= TWO_256) throw new Error("SqrtPriceMath: amount overflows");
    return divRoundingUp(numerator1, sum);
  }
  if (product >= TWO_256 || numerator1 <= product) {
    throw new Error("SqrtPriceMath: output exceeds the token0 reserve");
  }
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

/** SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown. */
function nextFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (add) return toUint160(sqrtPX96 + mulDiv(amount, Q96, liquidity));
  const quotient = mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) throw new Error("SqrtPriceMath: output exceeds the token1 reserve");
  return sqrtPX96 - quotient;
}

/**
 * SqrtPriceMath.getNextSqrtPriceFromInput: the price after adding `amountIn` of token0
 * (zeroForOne) or token1, rounded so the price never passes the target.
 */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) throw new Error("getNextSqrtPriceFromInput: no price or liquidity");
  return zeroForOne
    ? nextFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : nextFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/**
 * SqrtPriceMath.getNextSqrtPriceFromOutput: the price after taking `amountOut` of token1
 * (zeroForOne) or token0 out, rounded so the price passes the target.
 */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) throw new Error("getNextSqrtPriceFromOutput: no price or liquidity");
  return zeroForOne
    ? nextFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : nextFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}
