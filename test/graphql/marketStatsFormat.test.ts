import { describe, expect, test } from "vitest";
import type { Candle } from "../../src/domain/market.js";
import { priceChangePercentage } from "../../src/domain/priceChangePercentage.js";
import { fillCandles, foldCandles } from "../../src/graphql/queries/readCandleBuckets.js";
import { parseMinVolumeUsd } from "../../src/views/listSwaps.js";

const E18 = 10n ** 18n;
const candle = (start: number, price: bigint | undefined, volume = 1n): Candle => ({
  start,
  open: price,
  high: price,
  low: price,
  close: price,
  volume,
  quoteVolume: volume,
  tradeCount: 1,
  volumeUsd: volume,
});

describe("market stats formats", () => {
  test("args: minVolumeUSD is scaled by 10^18 exactly, digits past the 18th rounding up (a minimum stays a minimum)", () => {
    expect(parseMinVolumeUsd("1000")).toBe(1000n * E18);
    expect(parseMinVolumeUsd("0.5")).toBe(E18 / 2n);
    expect(parseMinVolumeUsd("0.0000000000000000011")).toBe(2n);
    expect(parseMinVolumeUsd("0.0000000000000000010")).toBe(1n);
  });

  test("error: a negative minVolumeUSD is refused with its name", () => {
    expect(() => parseMinVolumeUsd("-1")).toThrow(/minVolumeUSD/);
  });

  test("behavior: the price change is (price / open - 1) x 100 truncated toward zero to 6 decimals, null without both", () => {
    expect(priceChangePercentage(3n, 4n)).toBe("33.333333");
    expect(priceChangePercentage(3n, 2n)).toBe("-33.333333");
    expect(priceChangePercentage(5n, 5n)).toBe("0");
    expect(priceChangePercentage(undefined, 5n)).toBeNull();
    expect(priceChangePercentage(5n, undefined)).toBeNull();
    expect(priceChangePercentage(0n, 5n)).toBeNull();
  });

  test("behavior: folding keeps the first priced open, the last priced close and the extremes, and sums the rest", () => {
    const hours = [
      candle(0, undefined),
      candle(3_600, 5n),
      candle(7_200, 9n),
      candle(10_800, 2n),
      candle(14_400, 4n),
    ];
    const [first, second] = foldCandles(hours, 14_400);
    expect(first).toEqual({
      start: 0,
      open: 5n,
      high: 9n,
      low: 2n,
      close: 2n,
      volume: 4n,
      quoteVolume: 4n,
      tradeCount: 4,
      volumeUsd: 4n,
    });
    expect(second).toEqual(candle(14_400, 4n));
    // An unknown USD value makes the bucket's unknown.
    expect(
      foldCandles([candle(0, 1n), { ...candle(60, 1n), volumeUsd: undefined }], 3_600)[0]!.volumeUsd,
    ).toBeUndefined();
  });

  test("behavior: filling carries the previous close into empty buckets, from the close before the range", () => {
    const filled = fillCandles([candle(7_200, 9n)], {
      from: 3_700,
      end: 14_400,
      interval: 3_600,
      first: 10,
      previousClose: 4n,
    });
    expect(filled.map((c) => [c.start, c.close, c.tradeCount])).toEqual([
      [3_600, 4n, 0],
      [7_200, 9n, 1],
      [10_800, 9n, 0],
    ]);
    expect(
      fillCandles([], { from: 0, end: 36_000, interval: 3_600, first: 2, previousClose: undefined }),
    ).toEqual([
      {
        start: 0,
        open: undefined,
        high: undefined,
        low: undefined,
        close: undefined,
        volume: 0n,
        quoteVolume: 0n,
        tradeCount: 0,
        volumeUsd: 0n,
      },
      {
        start: 3_600,
        open: undefined,
        high: undefined,
        low: undefined,
        close: undefined,
        volume: 0n,
        quoteVolume: 0n,
        tradeCount: 0,
        volumeUsd: 0n,
      },
    ]);
  });
});
