import { EventEmitter } from "node:events";
import { describe, expect, test } from "vitest";
import { blockFreshness, createAnswerStore } from "../../../src/views/answers/createAnswerStore.js";

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

  test("behavior: while one request makes an answer, the others find its copy instead of making it", async () => {
    const store = createAnswerStore();
    const socket = new EventEmitter();
    const making = store.make("events", "bsc-7", socket);
    // A second making of the same answer is no one's to wait for: it only keeps.
    const other = store.make("events", "bsc-7", new EventEmitter());
    const waiting = store.find("events", "bsc-7", 0);
    async function* pieces() {
      yield Buffer.from('{"events":[');
      yield Buffer.from("]}");
    }
    const sent: Buffer[] = [];
    const keep = { maxBytes: 100, expiresAtMs: 10_000, build: (body: Buffer) => ({ body }) };
    for await (const piece of making.keepWhileSmall(pieces(), keep)) sent.push(piece);
    expect(Buffer.concat(sent).toString()).toBe('{"events":[]}');
    expect((await waiting)?.body.toString()).toBe('{"events":[]}');
    other.finish();
    // Another state of the same key is another answer: nothing to wait for, nothing kept.
    expect(await store.find("events", "bsc-8", 0)).toBeUndefined();
  });

  test("behavior: an answer larger than maxBytes is passed on but not kept; its waiters stop waiting", async () => {
    const store = createAnswerStore();
    const making = store.make("swaps", "9", new EventEmitter());
    const waiting = store.find("swaps", "9", 0);
    const keep = { maxBytes: 3, expiresAtMs: 10_000, build: (body: Buffer) => ({ body }) };
    async function* pieces() {
      yield Buffer.from("[1,");
      yield Buffer.from("2]");
    }
    const sent: Buffer[] = [];
    for await (const piece of making.keepWhileSmall(pieces(), keep)) sent.push(piece);
    expect(Buffer.concat(sent).toString()).toBe("[1,2]");
    expect(await waiting).toBeUndefined();
    expect(store.get("swaps", "9", 0)).toBeUndefined();
  });

  test("behavior: the waiters of a making whose client leaves, or that stalls, stop waiting", async () => {
    const store = createAnswerStore({ stallMs: 20 });
    const socket = new EventEmitter();
    store.make("a", "s", socket);
    const left = store.find("a", "s", 0);
    socket.emit("close");
    expect(await left).toBeUndefined();
    // A making that moves on no more: its waiters go after stallMs (they make their own).
    store.make("b", "s", new EventEmitter());
    const started = Date.now();
    expect(await store.find("b", "s", 0)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  test("behavior: an answer of an indexed block is kept one poll; clients may keep it a poll and revalidate for three", () => {
    expect(blockFreshness(2_000, 10_000)).toEqual({
      expiresAtMs: 12_000,
      cacheControl: "public, max-age=2, stale-while-revalidate=6",
    });
    // Polls under a second still let clients keep an answer a second.
    expect(blockFreshness(100, 0).cacheControl).toBe("public, max-age=1, stale-while-revalidate=3");
  });
});
