import { describe, expect, test } from "vitest";
import { summarizeRounds } from "../../bench/summarizeRounds.js";

describe("summarizeRounds", () => {
  test("args: an odd count takes the middle value, whatever the order", () => {
    expect(summarizeRounds([9, 3, 5])).toEqual({ median: 5, min: 3, max: 9, missing: 0 });
  });

  test("args: an even count takes the mean of the middle two", () => {
    expect(summarizeRounds([4, 1, 2, 10])).toEqual({ median: 3, min: 1, max: 10, missing: 0 });
  });

  test("behavior: rounds that never got there (NaN) are counted apart, not in the median", () => {
    expect(summarizeRounds([Number.NaN, 7, 3])).toEqual({ median: 5, min: 3, max: 7, missing: 1 });
  });

  test("behavior: no finite value gives NaN", () => {
    const summary = summarizeRounds([Number.NaN]);
    expect(summary.median).toBeNaN();
    expect(summary.missing).toBe(1);
  });
});
