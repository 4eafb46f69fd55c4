import { describe, expect, test } from "vitest";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getNativePriceUsd } from "../../src/pricing/getNativePriceUsd.js";
import { getTokenPriceUsd } from "../../src/pricing/getTokenPriceUsd.js";
import { valueTradeUsd } from "../../src/pricing/valueTradeUsd.js";
import {
  DAI,
  JUNK,
  LINK,
  MEME,
  makeParams,
  makePool,
  UNI,
  USDC,
  USDT,
  units,
  WBTC,
  WETH,
} from "./fixtures.js";

const USD = (n: bigint | number) => units(n, 18);

describe("getNativePriceUsd", () => {
  test("behavior: liquidity-weighted over stablecoin pairs, weight = stable reserve in USD", () => {
    const params = makeParams();
    const index = createPoolIndex([
      makePool(WETH, USDC, units(1_000, 18), units(2_000_000, 6)), // 2000 USD, weight 2,000,000
      makePool(WETH, DAI, units(100, 18), units(210_000, 18)), // 2100 USD, weight 210,000
      makePool(WETH, USDT, units(1, 18), units(9_000, 6)), // 9000 USD but thin: ignored
    ]);
    const expected = (USD(2000) * USD(2_000_000) + USD(2100) * USD(210_000)) / USD(2_210_000);
    expect(getNativePriceUsd(index, params)).toBe(expected);
    expect(expected).toBe(2009502262443438914027n); // ~2009.50 USD
  });

  test("behavior: undefined when only thin stable pairs exist", () => {
    const params = makeParams();
    const index = createPoolIndex([makePool(WETH, USDT, units(1, 18), units(9_000, 6))]);
    expect(getNativePriceUsd(index, params)).toBeUndefined();
    expect(getTokenPriceUsd(index, params, WETH)).toBeUndefined();
  });

  test("behavior: follows pool updates (the cache is invalidated)", () => {
    const params = makeParams();
    const pool = makePool(WETH, USDC, units(1_000, 18), units(2_000_000, 6));
    const index = createPoolIndex([pool]);
    expect(getNativePriceUsd(index, params)).toBe(USD(2000));
    index.update({
      ...pool,
      reserve0: pool.token0 === WETH ? units(800, 18) : units(2_000_000, 6),
      reserve1: pool.token0 === WETH ? units(2_000_000, 6) : units(800, 18),
    });
    expect(getNativePriceUsd(index, params)).toBe(USD(2500));
  });
});

describe("getTokenPriceUsd", () => {
  test("behavior: stablecoins are 1 USD", () => {
    expect(getTokenPriceUsd(createPoolIndex([]), makeParams(), USDC)).toBe(USD(1));
  });

  test("behavior: a thin pool with an absurd price does not set the price; the deep one does", () => {
    const params = makeParams();
    const index = createPoolIndex([
      makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6)), // ETH = 2000
      makePool(LINK, WETH, units(2_000_000, 18), units(10_000, 18)), // LINK = 10 USD, 20M USD deep
      makePool(LINK, USDC, units(1, 18), units(5_000, 6)), // LINK = 5000 USD, 5k USD: thin
    ]);
    expect(getTokenPriceUsd(index, params, LINK)).toBe(USD(10));
    // Alone, the thin pool prices nothing.
    const thinOnly = createPoolIndex([makePool(MEME, USDC, units(1, 9), units(5_000, 6))]);
    expect(getTokenPriceUsd(thinOnly, params, MEME)).toBeUndefined();
  });

  test("behavior: the most liquid qualifying pair wins", () => {
    const params = makeParams();
    const index = createPoolIndex([
      makePool(UNI, USDC, units(10_000, 18), units(50_000, 6)), // 5 USD, 50k deep
      makePool(UNI, DAI, units(40_000, 18), units(220_000, 18)), // 5.5 USD, 220k deep
    ]);
    expect(getTokenPriceUsd(index, params, UNI)).toBe(USD(55) / 10n);
  });

  test("behavior: prices through a base token priced by its own stable pair (two levels)", () => {
    const params = makeParams();
    const index = createPoolIndex([
      makePool(WBTC, USDC, units(100, 8), units(6_000_000, 6)), // BTC = 60,000
      makePool(MEME, WBTC, units(3_000_000, 9), units(10, 8)), // MEME = 0.2 USD, 600k deep
    ]);
    expect(getTokenPriceUsd(index, params, WBTC)).toBe(USD(60_000));
    expect(getTokenPriceUsd(index, params, MEME)).toBe(USD(2) / 10n);
  });

  test("behavior: no deeper chains than two levels", () => {
    // LINK is made a base token priced only through WBTC, which has no stable/native pair:
    // MEME -> LINK -> WBTC -> USDC would be three levels, so MEME stays unpriced.
    const params = makeParams({ baseTokens: new Set([WETH, USDC, DAI, USDT, WBTC, LINK]) });
    const index = createPoolIndex([
      makePool(WBTC, USDC, units(100, 8), units(6_000_000, 6)),
      makePool(LINK, WBTC, units(1_000_000, 18), units(100, 8)),
      makePool(MEME, LINK, units(1_000_000, 9), units(1_000_000, 18)),
    ]);
    expect(getTokenPriceUsd(index, params, LINK)).toBe(USD(6));
    expect(getTokenPriceUsd(index, params, MEME)).toBeUndefined();
  });

  test("behavior: a pair with a non-whitelisted token never prices", () => {
    const params = makeParams();
    const index = createPoolIndex([
      makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6)),
      makePool(JUNK, LINK, units(1_000_000, 18), units(1_000_000, 18)),
      makePool(LINK, WETH, units(2_000_000, 18), units(10_000, 18)),
    ]);
    expect(getTokenPriceUsd(index, params, LINK)).toBe(USD(10));
    expect(getTokenPriceUsd(index, params, JUNK)).toBeUndefined();
  });
});

describe("valueTradeUsd", () => {
  const params = makeParams();
  const index = createPoolIndex([
    makePool(WETH, USDC, units(10_000, 18), units(20_000_000, 6)), // ETH = 2000
    makePool(LINK, WETH, units(2_000_000, 18), units(10_000, 18)), // LINK = 10
  ]);

  test("behavior: a stablecoin side values the trade exactly", () => {
    const value = valueTradeUsd({
      index,
      params,
      tokenIn: USDC,
      amountIn: 1_234_567_891n, // 1234.567891 USDC
      tokenOut: WETH,
      amountOut: units(1, 18), // priced 2000, ignored
    });
    expect(value).toEqual({ volumeUsd: 1_234_567_891n * 10n ** 12n, tracked: true });
  });

  test("behavior: two stablecoins are averaged", () => {
    const value = valueTradeUsd({
      index,
      params,
      tokenIn: USDC,
      amountIn: 1_000_000n,
      tokenOut: DAI,
      amountOut: units(99, 16),
    });
    expect(value).toEqual({ volumeUsd: (USD(1) + units(99, 16)) / 2n, tracked: true });
  });

  test("behavior: two priced sides are averaged, one priced side is used alone", () => {
    const both = valueTradeUsd({
      index,
      params,
      tokenIn: WETH,
      amountIn: units(1, 18),
      tokenOut: LINK,
      amountOut: units(210, 18),
    });
    expect(both).toEqual({ volumeUsd: (USD(2000) + USD(2100)) / 2n, tracked: true });
    const one = valueTradeUsd({
      index,
      params,
      tokenIn: JUNK,
      amountIn: units(5, 18),
      tokenOut: LINK,
      amountOut: units(3, 18),
    });
    expect(one).toEqual({ volumeUsd: USD(30), tracked: true });
  });

  test("behavior: both sides unpriced is untracked and worth 0", () => {
    const value = valueTradeUsd({
      index,
      params,
      tokenIn: JUNK,
      amountIn: units(5, 18),
      tokenOut: MEME,
      amountOut: units(3, 9),
    });
    expect(value).toEqual({ volumeUsd: 0n, tracked: false });
  });
});
