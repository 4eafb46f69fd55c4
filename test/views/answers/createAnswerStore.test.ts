import { describe, expect, test } from "vitest";
import { createAnswerStore } from "../../../src/views/answers/createAnswerStore.js";

const answer = (text: string) => ({ body: Buffer.from(text) });

describe("createAnswerStore", () => {
  test("behavior: an answer is found only in the state it was made in, and until it expires", () => {
    const store = createAnswerStore();
    const kept = answer("[1]");
    store.set("quote\nbsc\nbnb\nusdt", "40000000", kept, 2_000);
    expect(store.get("quote\nbsc\nbnb\nusdt", "40000000", 1_999)).toBe(kept);
    // A new indexed block is another state: nothing to invalidate, the old answer is not found.
    expect(store.get("quote\nbsc\nbnb\nusdt", "40000001", 1_000)).toBeUndefined();
    expect(store.get("quote\nbsc\nbnb\nusdt", "40000000", 2_000)).toBeUndefined();
    expect(store.get("quote\nbsc\ncake\nusdt", "40000000", 1_000)).toBeUndefined();
    // Without an expiry an answer lasts as long as its state.
    store.set("graphql\nPOST", "bsc:1;h1", kept);
    expect(store.get("graphql\nPOST", "bsc:1;h1", Number.MAX_SAFE_INTEGER)).toBe(kept);
  });

  test("behavior: past maxEntries or maxBytes the least recently used answers go", () => {
    const store = createAnswerStore({ maxEntries: 2, maxBytes: 1_000_000 });
    store.set("a", "s", answer("a"));
    store.set("b", "s", answer("b"));
    expect(store.get("a", "s", 0)).toBeDefined();
    store.set("c", "s", answer("c"));
    expect([store.get("a", "s", 0), store.get("b", "s", 0), store.get("c", "s", 0)].map(Boolean)).toEqual([
      true,
      false,
      true,
    ]);
    expect(store.size).toBe(2);
    const small = createAnswerStore({ maxEntries: 100, maxBytes: 1_000 });
    small.set("big", "s", answer("x".repeat(2_000)));
    expect(small.get("big", "s", 0)).toBeUndefined();
  });
});
