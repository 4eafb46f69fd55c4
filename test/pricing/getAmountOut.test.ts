import { describe, expect, test } from "vitest";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";

// UniswapV2Library.getAmountOut, written the way the contract does it.
function uniswapGetAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

// PancakeLibrary.getAmountOut (PancakeSwap V2: 9975/10000).
function pancakeGetAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const amountInWithFee = amountIn * 9975n;
  return (amountInWithFee * reserveOut) / (reserveIn * 10000n + amountInWithFee);
}

// The pair contract's swap() check: the fee-adjusted balances must not lower K.
function pairAcceptsSwap(
  amountIn: bigint,
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: bigint,
) {
  if (amountOut >= reserveOut) return false;
  const balanceIn = reserveIn + amountIn;
  const balanceOut = reserveOut - amountOut;
  const adjustedIn = balanceIn * 10000n - amountIn * feeBps;
  const adjustedOut = balanceOut * 10000n;
  return adjustedIn * adjustedOut >= reserveIn * reserveOut * 10000n ** 2n;
}

const MAX_RESERVE = 2n ** 112n - 1n;

const CASES: Array<[string, bigint, bigint, bigint]> = [
  ["1 ETH into 100/200,000", 10n ** 18n, 100n * 10n ** 18n, 200_000n * 10n ** 6n],
  ["tiny: 1 wei into 1/1", 1n, 1n, 1n],
  ["tiny: 1000 wei into 1000/1000", 1000n, 1000n, 1000n],
  ["tiny reserves, big input", 10n ** 24n, 3n, 7n],
  ["huge reserves 2^112-1", 10n ** 30n, MAX_RESERVE, MAX_RESERVE],
  ["huge input into huge reserves", MAX_RESERVE, MAX_RESERVE, MAX_RESERVE - 12345n],
  ["uneven decimals", 123_456_789n, 5_000_000n * 10n ** 6n, 2_500n * 10n ** 18n],
];

describe("getAmountOut", () => {
  test.each(CASES)(
    "behavior: fee 30 equals the Uniswap V2 library (%s)",
    (_, amountIn, reserveIn, reserveOut) => {
      const out = getAmountOut(amountIn, reserveIn, reserveOut, 30);
      expect(out).toBe(uniswapGetAmountOut(amountIn, reserveIn, reserveOut));
    },
  );

  test.each(CASES)(
    "behavior: fee 25 equals the PancakeSwap V2 library (%s)",
    (_, amountIn, reserveIn, reserveOut) => {
      const out = getAmountOut(amountIn, reserveIn, reserveOut, 25);
      expect(out).toBe(pancakeGetAmountOut(amountIn, reserveIn, reserveOut));
    },
  );

  test.each(CASES)(
    "behavior: the output is the largest the pair accepts (%s)",
    (_, amountIn, reserveIn, reserveOut) => {
      for (const fee of [25, 30]) {
        const out = getAmountOut(amountIn, reserveIn, reserveOut, fee);
        if (out > 0n) expect(pairAcceptsSwap(amountIn, out, reserveIn, reserveOut, BigInt(fee))).toBe(true);
        expect(pairAcceptsSwap(amountIn, out + 1n, reserveIn, reserveOut, BigInt(fee))).toBe(false);
      }
    },
  );

  test("behavior: the lower fee gives more output", () => {
    const args = [10n ** 18n, 100n * 10n ** 18n, 100n * 10n ** 18n] as const;
    expect(getAmountOut(...args, 25)).toBeGreaterThan(getAmountOut(...args, 30));
    expect(getAmountOut(...args, 30)).toBe(987158034397061298n);
  });

  test("args: 0n when any input is zero", () => {
    expect(getAmountOut(0n, 10n, 10n, 30)).toBe(0n);
    expect(getAmountOut(10n, 0n, 10n, 30)).toBe(0n);
    expect(getAmountOut(10n, 10n, 0n, 30)).toBe(0n);
  });
});
