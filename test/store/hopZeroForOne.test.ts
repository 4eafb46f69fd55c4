import { describe, expect, test } from "vitest";
import type { Address } from "../../src/domain/types.js";
import { encodeMarks, encodePools } from "../../src/store/rowCodec.js";
import { hopZeroForOne } from "../../src/store/sqlite/registerStatsFunctions.js";

const pool = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;

describe("hopZeroForOne", () => {
  test("behavior: reads each pool's direction back from the stored pools and marks (rowCodec's encoding)", () => {
    const pools = [pool(1), pool(2), pool(3)];
    const directions = [true, false, true];
    const marks = encodeMarks(
      { amountIn: 100n, amountOut: 7n },
      {
        priceInUsd: 5n,
        priceOutUsd: undefined,
        native: undefined,
        hops: directions.map((zeroForOne, i) => ({
          zeroForOne,
          amountIn: BigInt(100 - i),
          amountOut: BigInt(99 - i),
        })),
      },
    );
    expect(pools.map((p) => hopZeroForOne(encodePools(pools), marks, p))).toEqual(["1", "0", "1"]);
  });

  test("args: a pool the trade did not cross, or a trade without marks, has no direction", () => {
    const marks = encodeMarks(
      { amountIn: 1n, amountOut: 1n },
      {
        priceInUsd: undefined,
        priceOutUsd: undefined,
        native: undefined,
        hops: [{ zeroForOne: false, amountIn: 1n, amountOut: 1n }],
      },
    );
    expect(hopZeroForOne(pool(1), marks, pool(2))).toBeNull();
    expect(hopZeroForOne(pool(1), null, pool(1))).toBeNull();
    expect(hopZeroForOne(pool(1), marks, pool(1))).toBe("0");
  });
});
