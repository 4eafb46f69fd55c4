import { expect, test } from "vitest";
import { describeStores } from "../support/storeBackends.js";

describeStores("store heads", ({ fresh }) => {
  test("behavior: saveHead keeps one head per network and getHead reads it back", async () => {
    const store = await fresh();
    expect(await store.getHead("bsc")).toBeUndefined();
    await store.saveHead("bsc", { headBlock: 2n ** 60n, checkedAt: 1_763_000_000_123, syncedAt: undefined });
    await store.saveHead("eth", { headBlock: 7n, checkedAt: 1, syncedAt: 2 });
    expect(await store.getHead("bsc")).toEqual({
      headBlock: 2n ** 60n,
      checkedAt: 1_763_000_000_123,
      syncedAt: undefined,
    });
    await store.saveHead("bsc", { headBlock: 9n, checkedAt: 1_763_000_001_000, syncedAt: 1_763_000_000_999 });
    expect(await store.getHead("bsc")).toEqual({
      headBlock: 9n,
      checkedAt: 1_763_000_001_000,
      syncedAt: 1_763_000_000_999,
    });
    expect(await store.getHead("eth")).toEqual({ headBlock: 7n, checkedAt: 1, syncedAt: 2 });
  });
});
