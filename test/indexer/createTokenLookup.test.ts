import { describe, expect, test } from "vitest";
import type { Address, Token } from "../../src/domain/types.js";
import { NotErc20Error, RpcError, TokenLookupBusyError } from "../../src/errors.js";
import { createTokenLookup } from "../../src/indexer/createTokenLookup.js";
import { createLruCache } from "../../src/lib/createLruCache.js";

const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const token = (a: Address): Token => ({ address: a, name: "T", symbol: "T", decimals: 18 });

/** A fake read: resolves or rejects when the test says, counting calls per address. */
function fakeRead(outcome: (a: Address) => Token | Error = token) {
  const calls: Address[] = [];
  const open: (() => void)[] = [];
  let hold = false;
  const read = async (a: Address): Promise<Token> => {
    calls.push(a);
    if (hold) await new Promise<void>((resolve) => open.push(resolve));
    const result = outcome(a);
    if (result instanceof Error) throw result;
    return result;
  };
  return {
    read,
    calls,
    hold: () => {
      hold = true;
    },
    releaseAll: () => {
      hold = false;
      for (const go of open.splice(0)) go();
    },
  };
}

describe("createLruCache with expiry", () => {
  test("behavior: drops the least recently used past maxEntries, and entries past their expiry", () => {
    let now = 0;
    const lru = createLruCache<number>({ maxEntries: 2, now: () => now });
    lru.set("a", 1, 100);
    lru.set("b", 2, 100);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3, 100);
    expect([lru.get("a"), lru.get("b"), lru.get("c")]).toEqual([1, undefined, 3]);
    expect(lru.size).toBe(2);
    now = 100;
    expect(lru.get("a")).toBeUndefined();
    expect(lru.size).toBe(1);
  });
});

describe("createTokenLookup", () => {
  test("behavior: 1,000 concurrent lookups of one address make one read; later ones hit the cache", async () => {
    const fake = fakeRead();
    const lookup = createTokenLookup("bsc", fake.read);
    fake.hold();
    const all = Promise.all(Array.from({ length: 1_000 }, () => lookup.get(address(1))));
    fake.releaseAll();
    expect(new Set(await all).size).toBe(1);
    await lookup.get(address(1));
    expect(fake.calls).toEqual([address(1)]);
  });

  test("behavior: a refusal is remembered until it expires; an RPC failure only briefly", async () => {
    let now = 0;
    const fake = fakeRead((a) =>
      a === address(1)
        ? new NotErc20Error({ address: a, network: "bsc", reason: "no code" })
        : new RpcError("down"),
    );
    const lookup = createTokenLookup("bsc", fake.read, {
      ttlMs: 60_000,
      failureTtlMs: 1_000,
      now: () => now,
    });
    for (let i = 0; i < 3; i++) {
      await expect(lookup.get(address(1))).rejects.toBeInstanceOf(NotErc20Error);
      await expect(lookup.get(address(2))).rejects.toBeInstanceOf(RpcError);
    }
    expect(fake.calls).toEqual([address(1), address(2)]);
    now = 1_000;
    await expect(lookup.get(address(2))).rejects.toBeInstanceOf(RpcError);
    await expect(lookup.get(address(1))).rejects.toBeInstanceOf(NotErc20Error);
    expect(fake.calls).toEqual([address(1), address(2), address(2)]);
    now = 60_000;
    await expect(lookup.get(address(1))).rejects.toBeInstanceOf(NotErc20Error);
    expect(fake.calls).toHaveLength(4);
  });

  test("behavior: errors that are no SwapgraphError are not remembered", async () => {
    const fake = fakeRead(() => new TypeError("bug"));
    const lookup = createTokenLookup("bsc", fake.read);
    await expect(lookup.get(address(1))).rejects.toThrow("bug");
    await expect(lookup.get(address(1))).rejects.toThrow("bug");
    expect(fake.calls).toHaveLength(2);
    expect(lookup.size).toBe(0);
  });

  test("behavior: the cache is bounded by maxEntries", async () => {
    const fake = fakeRead();
    const lookup = createTokenLookup("bsc", fake.read, { maxEntries: 50 });
    for (let i = 0; i < 300; i++) await lookup.get(address(i));
    expect(lookup.size).toBe(50);
  });

  test("error: at most `concurrency` reads run, `maxWaiting` wait, the rest are refused with a 503", async () => {
    const fake = fakeRead();
    const lookup = createTokenLookup("bsc", fake.read, { concurrency: 2, maxWaiting: 3 });
    fake.hold();
    const accepted = Array.from({ length: 5 }, (_, i) => lookup.get(address(i)));
    expect(lookup.pending).toEqual({ running: 2, waiting: 3 });
    const refused = await lookup.get(address(99)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TokenLookupBusyError);
    expect((refused as TokenLookupBusyError).status).toBe(503);
    expect((refused as Error).message).toBe(
      "Too many unknown token addresses are being looked up on bsc; retry in a few seconds.",
    );
    // A lookup of an address already in flight joins it instead of being refused.
    const joined = lookup.get(address(4));
    expect(fake.calls).toHaveLength(2);
    fake.releaseAll();
    await Promise.all([...accepted, joined]);
    expect(fake.calls).toHaveLength(5);
    expect(lookup.pending).toEqual({ running: 0, waiting: 0 });
  });
});
