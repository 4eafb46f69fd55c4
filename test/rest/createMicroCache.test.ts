import { describe, expect, test } from "vitest";
import { createMicroCache } from "../../src/rest/createMicroCache.js";

describe("createMicroCache", () => {
  test("behavior: callers within one bucket share one computation, the next bucket recomputes", async () => {
    let now = 10_500;
    let computed = 0;
    const cache = createMicroCache<string>(1000, () => now);
    const compute = async (bucketStart: number) => `${++computed}@${bucketStart}`;
    const [a, b] = await Promise.all([cache("k", compute), cache("k", compute)]);
    expect([a, b]).toEqual(["1@10000", "1@10000"]);
    now = 10_999;
    expect(await cache("k", compute)).toBe("1@10000");
    expect(await cache("other", compute)).toBe("2@10000");
    now = 11_000;
    expect(await cache("k", compute)).toBe("3@11000");
  });

  test("error: a failed computation is not kept", async () => {
    const cache = createMicroCache<string>(1000, () => 0);
    await expect(cache("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await cache("k", async () => "ok")).toBe("ok");
  });
});
