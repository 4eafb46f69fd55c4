import { getAmount0Delta, getAmount1Delta } from "./getAmountDelta.js";
import { getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from "./getNextSqrtPrice.js";
import { mulDiv, mulDivRoundingUp } from "./mulDiv.js";

const PIPS = 1_000_000n;

/** What one step of a swap does: where the price ends and what goes in, out and to fees. */
export interface SwapStep {
  sqrtRatioNextX96: bigint;
  amountIn: bigint;
  amountOut: bigint;
  feeAmount: bigint;
}

/**
 * SwapMath.computeSwapStep: one step of a swap within constant liquidity, from the current price
 * towards the target (the next tick or the limit). `amountRemaining` >= 0 is exact input (fee
 * included), < 0 exact output. `feePips` is the pool's fee in millionths.
 */
export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number,
): SwapStep {
  const fee = BigInt(feePips);
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96;
  const exactIn = amountRemaining >= 0n;
  let amountIn = 0n;
  let amountOut = 0n;
  let sqrtRatioNextX96: bigint;
  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, PIPS - fee, PIPS);
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true);
    sqrtRatioNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false);
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne);
  }
  const max = sqrtRatioTargetX96 === sqrtRatioNextX96;
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true);
    if (!(max && !exactIn))
      amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true);
    if (!(max && !exactIn))
      amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false);
  }
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  const feeAmount =
    exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96
      ? // The target was not reached: whatever input is left over is the fee.
        amountRemaining - amountIn
      : mulDivRoundingUp(amountIn, fee, PIPS - fee);
  return { sqrtRatioNextX96, amountIn, amountOut, feeAmount };
}
