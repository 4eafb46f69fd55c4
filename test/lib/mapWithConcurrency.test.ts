import { describe, expect, test } from "vitest";
import { mapWithConcurrency } from "../../src/lib/mapWithConcurrency.js";

describe("mapWithConcurrency", () => {
  test("behavior: never more than the limit at once, every item once, results in order", async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const results = await mapWithConcurrency(items, 4, async (item) => {
      running++;
      most = Math.max(most, running);
      seen.push(item);
      // Later items finish first: the order of results must still be the items'.
      await new Promise((resolve) => setImmediate(resolve));
      if (item % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
      running--;
      return item * 10;
    });
    expect(most).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual(items);
    expect(results).toEqual(items.map((item) => item * 10));
  });

  test("error: the first failure rejects; a limit below 1 is refused", async () => {
    await expect(
      mapWithConcurrency([1, 2, 3], 2, async (item) => {
        if (item === 2) throw new Error("two failed");
        return item;
      }),
    ).rejects.toThrow("two failed");
    await expect(mapWithConcurrency([1], 0, async (item) => item)).rejects.toThrow(RangeError);
    expect(await mapWithConcurrency([], 3, async (item: number) => item)).toEqual([]);
  });
});
