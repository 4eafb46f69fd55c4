import { describe, expect, test } from "vitest";
import { addDelta } from "../../../src/pricing/v3/addDelta.js";
import { applyLiquidityChange } from "../../../src/pricing/v3/applyLiquidityChange.js";
import { computeSwapStep } from "../../../src/pricing/v3/computeSwapStep.js";
import { createTickTable } from "../../../src/pricing/v3/createTickTable.js";
import { getAmount0Delta, getAmount1Delta } from "../../../src/pricing/v3/getAmountDelta.js";
import {
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "../../../src/pricing/v3/getNextSqrtPrice.js";
import {
  getSqrtRatioAtTick,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "../../../src/pricing/v3/getSqrtRatioAtTick.js";
import { getTickAtSqrtRatio } from "../../../src/pricing/v3/getTickAtSqrtRatio.js";
import { MAX_UINT256, mulDiv, mulDivRoundingUp } from "../../../src/pricing/v3/mulDiv.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import { v3VirtualReserves } from "../../../src/pricing/v3/v3VirtualReserves.js";

const Q96 = 1n << 96n;
const Q128 = 1n << 128n;

describe("TickMath", () => {
  // The expectations of Uniswap's TickMath.spec.ts and its snapshot.
  test.each([
    [MIN_TICK, 4295128739n],
    [MIN_TICK + 1, 4295343490n],
    [-50, 79030349367926598376800521322n],
    [-1, 79224201403219477170569942574n],
    [0, Q96],
    [1, 79232123823359799118286999568n],
    [50, 79426470787362580746886972461n],
    [500, 81233731461783161732293370115n],
    [50000, 965075977353221155028623082916n],
    [150000, 143194173941309278083010301478497n],
    [500000, 5697689776495288729098254600827762987878n],
    [738203, 847134979253254120489401328389043031315994541n],
    [MAX_TICK - 1, 1461373636630004318706518188784493106690254656249n],
    [MAX_TICK, 1461446703485210103287273052203988822378723970342n],
  ])("behavior: getSqrtRatioAtTick(%i) = %s", (tick, expected) => {
    expect(getSqrtRatioAtTick(tick)).toBe(expected);
  });

  test("behavior: the bounds are the ratios of the extreme ticks", () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
  });

  test("error: ticks beyond the bounds throw like the contract (T)", () => {
    expect(() => getSqrtRatioAtTick(MIN_TICK - 1)).toThrow(/\(T\)/);
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow(/\(T\)/);
  });

  test.each([
    [MIN_SQRT_RATIO, MIN_TICK],
    [MIN_SQRT_RATIO + 1n, MIN_TICK],
    [4295343490n, MIN_TICK + 1],
    [Q96, 0],
    [Q96 - 1n, -1],
    [Q96 + 1n, 0],
    [1461373636630004318706518188784493106690254656249n, MAX_TICK - 1],
    [MAX_SQRT_RATIO - 1n, MAX_TICK - 1],
  ])("behavior: getTickAtSqrtRatio(%s) = %i", (sqrtPrice, tick) => {
    expect(getTickAtSqrtRatio(sqrtPrice)).toBe(tick);
  });

  test("behavior: getTickAtSqrtRatio is the greatest tick at or below the price, across the whole range", () => {
    for (let tick = MIN_TICK; tick < MAX_TICK; tick += 7919) {
      const ratio = getSqrtRatioAtTick(tick);
      expect(getTickAtSqrtRatio(ratio)).toBe(tick);
      if (tick > MIN_TICK) expect(getTickAtSqrtRatio(ratio - 1n)).toBe(tick - 1);
      expect(getTickAtSqrtRatio(getSqrtRatioAtTick(tick + 1) - 1n)).toBe(tick);
    }
  });

  test("error: prices outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO) throw (R)", () => {
    expect(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n)).toThrow(/\(R\)/);
    expect(() => getTickAtSqrtRatio(MAX_SQRT_RATIO)).toThrow(/\(R\)/);
  });
});

describe("FullMath", () => {
  test("behavior: mulDiv floors and mulDivRoundingUp ceils a 512-bit product", () => {
    expect(mulDiv(7n, 3n, 2n)).toBe(10n);
    expect(mulDivRoundingUp(7n, 3n, 2n)).toBe(11n);
    expect(mulDivRoundingUp(8n, 3n, 2n)).toBe(12n);
    expect(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256)).toBe(MAX_UINT256);
    // All-max inputs, a product above 256 bits (phantom overflow), and a remainder that rounds up.
    expect(mulDiv(Q128, 35n * Q128, 8n * Q128)).toBe((4375n * Q128) / 1000n);
    expect(mulDiv(Q128, Q128 / 3n, 3n * Q128)).toBe(37809151880104273718152734159085356828n);
    expect(mulDivRoundingUp(Q128, Q128 / 3n, 3n * Q128)).toBe(37809151880104273718152734159085356829n);
  });

  test("error: a zero denominator or a result above uint256 throws", () => {
    expect(() => mulDiv(1n, 1n, 0n)).toThrow(/zero/);
    expect(() => mulDiv(Q128, Q128, 1n)).toThrow(/overflows/);
    expect(() =>
      mulDivRoundingUp(
        535006138814359n,
        432862656469423142931042426214547535783388063929571229938474969n,
        2n,
      ),
    ).toThrow(/overflows/);
    expect(() => mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n)).toThrow(/overflows/);
  });
});

describe("SqrtPriceMath and SwapMath", () => {
  test("behavior: next prices from input and output round as SqrtPriceMath.spec.ts expects", () => {
    const price = Q96; // price 1
    const liquidity = 10n ** 18n;
    // 0.1 of token1 in: sqrt price up to 1.1 (rounded down).
    expect(getNextSqrtPriceFromInput(price, liquidity, 10n ** 17n, false)).toBe(
      87150978765690771352898345369n,
    );
    // 0.1 of token0 in: sqrt price down to 1/1.1 (rounded up).
    expect(getNextSqrtPriceFromInput(price, liquidity, 10n ** 17n, true)).toBe(
      72025602285694852357767227579n,
    );
    // The overflow fallback of amount0: an input of 2^255 cannot overflow, the price floors at 1.
    expect(getNextSqrtPriceFromInput(price, 1n, 1n << 255n, true)).toBe(1n);
    expect(getNextSqrtPriceFromOutput(price, liquidity, 10n ** 17n, false)).toBe(
      88031291682515930659493278152n,
    );
    expect(getNextSqrtPriceFromOutput(price, liquidity, 10n ** 17n, true)).toBe(
      71305346262837903834189555302n,
    );
    expect(() => getNextSqrtPriceFromOutput(price, 1n, 4n, false)).toThrow(/reserve/);
  });

  test("behavior: amount deltas round up for what the pool asks and down for what it pays", () => {
    const lower = Q96;
    const upper = 87150978765690771352898345369n;
    expect(getAmount0Delta(lower, upper, 10n ** 18n, true)).toBe(90909090909090910n);
    expect(getAmount0Delta(lower, upper, 10n ** 18n, false)).toBe(90909090909090909n);
    expect(getAmount1Delta(lower, upper, 10n ** 18n, true)).toBe(100000000000000000n);
    expect(getAmount1Delta(upper, lower, 10n ** 18n, false)).toBe(99999999999999999n);
  });

  test("behavior: computeSwapStep takes the fee on top when the target is reached, the rest of the input when not", () => {
    const price = Q96;
    const target = 79623317895830914510639640423n; // sqrt(1.01)
    const liquidity = 2n * 10n ** 18n;
    // SwapMath.spec.ts "exact amount in that gets capped at price target in one for zero".
    const capped = computeSwapStep(price, target, liquidity, 10n ** 18n, 600);
    expect(capped).toEqual({
      sqrtRatioNextX96: target,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    });
    // "exact amount in that is fully spent in one for zero".
    const spent = computeSwapStep(price, 250541448375047931186413801569n, liquidity, 10n ** 18n, 600);
    expect(spent.amountIn + spent.feeAmount).toBe(10n ** 18n);
    expect(spent).toEqual({
      sqrtRatioNextX96: 118818475322642227089037862318n, // 1.4997 · 2^96
      amountIn: 999400000000000000n,
      amountOut: 666399946655997866n,
      feeAmount: 600000000000000n,
    });
  });

  test("error: addDelta stays within uint128 (LS, LA)", () => {
    expect(addDelta(1n, -1n)).toBe(0n);
    expect(() => addDelta(0n, -1n)).toThrow(/LS/);
    expect(() => addDelta((1n << 128n) - 1n, 1n)).toThrow(/LA/);
  });
});

describe("tick table", () => {
  // TickBitmap.spec.ts: initialized ticks -200, -55, -4, 70, 78, 84, 139, 240, 535 at spacing 1.
  const table = createTickTable();
  for (const tick of [-200, -55, -4, 70, 78, 84, 139, 240, 535]) table.set(tick, 1n, 1n);

  test.each([
    [78, 84, true],
    [-55, -4, true],
    [77, 78, true],
    [-56, -55, true],
    [255, 511, false], // the next word's first tick is 256: the step ends at this word's edge
    [-257, -200, true],
    [508, 511, false],
    [383, 511, false],
    [511, 535, true],
  ])("behavior: the next tick above %i is %i (initialized %s)", (tick, next, initialized) => {
    expect(table.nextInitializedTickWithinOneWord(tick, 1, false)).toEqual({ next, initialized });
  });

  test.each([
    [78, 78, true],
    [79, 78, true],
    [258, 256, false],
    [256, 256, false],
    [72, 70, true],
    [-257, -512, false],
    [1023, 768, false],
    [900, 768, false],
    [-1, -4, true],
  ])("behavior: the next tick at or below %i is %i (initialized %s)", (tick, next, initialized) => {
    expect(table.nextInitializedTickWithinOneWord(tick, 1, true)).toEqual({ next, initialized });
  });

  test("behavior: compressed ticks floor toward negative infinity with a spacing", () => {
    const spaced = createTickTable([[-60, { liquidityNet: 5n, liquidityGross: 5n }]]);
    // -1 compresses to -1 (not 0): at or below it, -60 is found.
    expect(spaced.nextInitializedTickWithinOneWord(-1, 60, true)).toEqual({ next: -60, initialized: true });
    expect(spaced.nextInitializedTickWithinOneWord(-61, 60, false)).toEqual({ next: -60, initialized: true });
    // Compressed word -1 spans -256..-1: its edge above is -60 when -60 is gone.
    spaced.set(-60, 0n, 0n);
    expect(spaced.size).toBe(0);
    expect(spaced.nextInitializedTickWithinOneWord(-61, 60, false)).toEqual({
      next: -60,
      initialized: false,
    });
    expect(spaced.nextInitializedTickWithinOneWord(-1, 60, true)).toEqual({
      next: -256 * 60,
      initialized: false,
    });
    expect(spaced.nextInitializedTickWithinOneWord(0, 60, false)).toEqual({
      next: 255 * 60,
      initialized: false,
    });
  });

  test("behavior: set keeps ticks sorted, gross 0 removes, clone is independent", () => {
    const t = createTickTable();
    t.set(120, -3n, 3n);
    t.set(-60, 3n, 3n);
    t.set(60, 1n, 1n);
    const copy = t.clone();
    t.set(60, 0n, 0n);
    expect([...t.entries()].map(([tick]) => tick)).toEqual([-60, 120]);
    expect([...copy.entries()].map(([tick]) => tick)).toEqual([-60, 60, 120]);
    expect(copy.get(60)).toEqual({ liquidityNet: 1n, liquidityGross: 1n });
  });
});

describe("swapExactInput", () => {
  const fullRange = (spacing: number) => [
    Math.ceil(MIN_TICK / spacing) * spacing,
    Math.floor(MAX_TICK / spacing) * spacing,
  ];

  test("behavior: a word boundary ends a step even when no tick is initialized there", () => {
    // One position [-120, 15420) at spacing 60: compressed ticks 0..255 (ticks 0..15300) are word 0,
    // so a swap up from 15000 stops at 15300 before it looks into word 1.
    const ticks = createTickTable();
    const L = 10n ** 20n;
    for (const r of [applyLiquidityChange({ ticks, tick: 15000, liquidity: 0n }, -120, 15420, L)]) {
      ticks.set(r.lower.tick, r.lower.liquidityNet, r.lower.liquidityGross);
      ticks.set(r.upper.tick, r.upper.liquidityNet, r.upper.liquidityGross);
    }
    const state = {
      sqrtPriceX96: getSqrtRatioAtTick(15000),
      tick: 15000,
      liquidity: L,
      fee: 3000,
      tickSpacing: 60,
      ticks,
    };
    const limit = getSqrtRatioAtTick(15400);
    // Enough to pass the word edge and stop short of the limit.
    const amount = 3208781020991755785n;
    const stepped = swapExactInput(state, false, amount, limit);
    // Two steps: to the word edge at 15300, then on with what is left, as the pool goes.
    const first = computeSwapStep(state.sqrtPriceX96, getSqrtRatioAtTick(15300), L, amount, 3000);
    const second = computeSwapStep(
      first.sqrtRatioNextX96,
      limit,
      L,
      amount - first.amountIn - first.feeAmount,
      3000,
    );
    expect(stepped).toEqual({
      amountIn: amount,
      amountOut: first.amountOut + second.amountOut,
      sqrtPriceX96: second.sqrtRatioNextX96,
      tick: getTickAtSqrtRatio(second.sqrtRatioNextX96),
      liquidity: L,
      ticksCrossed: 0,
    });
    expect(stepped.amountOut).toBe(703253648698138475n);
    // One step straight to the limit would round once and pay a wei more.
    expect(computeSwapStep(state.sqrtPriceX96, limit, L, amount, 3000).amountOut).toBe(703253648698138476n);
  });

  test("behavior: crossing ticks changes the active liquidity; running out leaves the rest of the input", () => {
    const ticks = createTickTable();
    let pool = { ticks, tick: 0, liquidity: 0n };
    for (const [lower, upper, L] of [
      [-600, 600, 10n ** 18n],
      [...fullRange(60), 10n ** 15n],
    ] as [number, number, bigint][]) {
      const r = applyLiquidityChange(pool, lower, upper, L);
      ticks.set(r.lower.tick, r.lower.liquidityNet, r.lower.liquidityGross);
      ticks.set(r.upper.tick, r.upper.liquidityNet, r.upper.liquidityGross);
      pool = { ticks, tick: 0, liquidity: r.liquidity };
    }
    expect(pool.liquidity).toBe(10n ** 18n + 10n ** 15n);
    const state = { sqrtPriceX96: Q96, tick: 0, liquidity: pool.liquidity, fee: 500, tickSpacing: 60, ticks };
    const small = swapExactInput(state, true, 10n ** 12n);
    expect(small.ticksCrossed).toBe(0);
    expect(small.amountIn).toBe(10n ** 12n);
    const crossing = swapExactInput(state, true, 10n ** 17n);
    expect(crossing).toMatchObject({ ticksCrossed: 1, liquidity: 10n ** 15n, amountIn: 10n ** 17n });
    expect(crossing.tick).toBeLessThan(-600);
    const all = swapExactInput(state, true, 1n << 200n);
    expect(all.sqrtPriceX96).toBe(MIN_SQRT_RATIO + 1n);
    expect(all.ticksCrossed).toBe(2);
    expect(all.liquidity).toBe(0n);
    expect(all.amountIn).toBeLessThan(1n << 200n);
    // Pure: the state is untouched.
    expect(state.sqrtPriceX96).toBe(Q96);
    expect(ticks.size).toBe(4);
  });

  test("error: a limit that is not beyond the price throws (SPL)", () => {
    const state = {
      sqrtPriceX96: Q96,
      tick: 0,
      liquidity: 1n,
      fee: 500,
      tickSpacing: 10,
      ticks: createTickTable(),
    };
    expect(() => swapExactInput(state, true, 1n, Q96)).toThrow(/SPL/);
    expect(() => swapExactInput(state, false, 1n, Q96 - 1n)).toThrow(/SPL/);
  });
});

describe("applyLiquidityChange", () => {
  test("behavior: a Mint adds gross to both bounds, +net below and -net above; in range only it moves the active liquidity", () => {
    const ticks = createTickTable();
    const inRange = applyLiquidityChange({ ticks, tick: -10, liquidity: 7n }, -10, 10, 100n);
    expect(inRange).toEqual({
      liquidity: 107n,
      lower: { tick: -10, liquidityNet: 100n, liquidityGross: 100n },
      upper: { tick: 10, liquidityNet: -100n, liquidityGross: 100n },
    });
    // The upper bound is excluded: at tick 10 the position is out of range.
    expect(applyLiquidityChange({ ticks, tick: 10, liquidity: 7n }, -10, 10, 100n).liquidity).toBe(7n);
    ticks.set(-10, 100n, 100n);
    ticks.set(10, -100n, 100n);
    const burnAll = applyLiquidityChange({ ticks, tick: 0, liquidity: 100n }, -10, 10, -100n);
    expect(burnAll).toEqual({
      liquidity: 0n,
      lower: { tick: -10, liquidityNet: 0n, liquidityGross: 0n },
      upper: { tick: 10, liquidityNet: 0n, liquidityGross: 0n },
    });
    expect(applyLiquidityChange({ ticks, tick: 0, liquidity: 100n }, -10, 10, 0n).liquidity).toBe(100n);
    expect(() => applyLiquidityChange({ ticks, tick: 0, liquidity: 100n }, -10, 10, -101n)).toThrow(/LS/);
    expect(() => applyLiquidityChange({ ticks, tick: 0, liquidity: 0n }, 10, 10, 1n)).toThrow(/TLU/);
  });
});

test("behavior: virtual reserves are L/√P and L·√P, the pool's price and depth", () => {
  const price = 2n * Q96; // token1/token0 = 4
  expect(v3VirtualReserves(price, 10n ** 18n)).toEqual([5n * 10n ** 17n, 2n * 10n ** 18n]);
  expect(v3VirtualReserves(price, 0n)).toEqual([0n, 0n]);
});
