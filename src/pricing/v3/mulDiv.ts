/** 2^256: the EVM's word; every uint256 of the ported math stays below it. */
export const TWO_256 = 1n << 256n;
/** The largest uint256. */
export const MAX_UINT256 = TWO_256 - 1n;

/**
 * FullMath.mulDiv: floor(a·b / denominator) with a 512-bit intermediate, throwing where the
 * contract reverts (zero denominator, or a result that does not fit 256 bits).
 */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error("mulDiv: division by zero");
  const result = (a * b) / denominator;
  if (result > MAX_UINT256) throw new Error("mulDiv: result overflows uint256");
  return result;
}

/** FullMath.mulDivRoundingUp: ceil(a·b / denominator), reverting as the contract does. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error("mulDiv: division by zero");
  const product = a * b;
  let result = product / denominator;
  // A multiplication costs less than a second division: the remainder is non-zero iff this differs.
  if (result * denominator !== product) result += 1n;
  if (result > MAX_UINT256) throw new Error("mulDiv: result overflows uint256");
  return result;
}

/** UnsafeMath.divRoundingUp: ceil(x / y) for unsigned x and a non-zero y. */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  const quotient = x / y;
  return quotient * y !== x ? quotient + 1n : quotient;
}
