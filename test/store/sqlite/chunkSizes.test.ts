import { describe, expect, test } from "vitest";
import { chunkSizes } from "../../../src/store/sqlite/chunkedStatements.js";

describe("chunkSizes", () => {
  test("behavior: rows split into runs of 64, the rest in descending powers of two, in order", () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(64)).toEqual([64]);
    expect(chunkSizes(63)).toEqual([32, 16, 8, 4, 2, 1]);
    expect(chunkSizes(130)).toEqual([64, 64, 2]);
  });

  test("behavior: every count from 0 to 1,000 is covered exactly, with at most seven run sizes in all", () => {
    const shapes = new Set<number>();
    for (let total = 0; total <= 1000; total++) {
      const sizes = chunkSizes(total);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(total);
      for (const size of sizes) shapes.add(size);
    }
    expect([...shapes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64]);
  });
});
