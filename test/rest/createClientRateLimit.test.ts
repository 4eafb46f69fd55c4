import { describe, expect, test } from "vitest";
import { createClientRateLimit } from "../../src/rest/createClientRateLimit.js";

describe("createClientRateLimit", () => {
  test("behavior: a client gets its burst at once, then its rate; others are not affected", () => {
    const limit = createClientRateLimit({ perSecond: 10, burst: 3 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => limit.take("a", t))).toEqual([undefined, undefined, undefined]);
    // Empty: the next token comes after 1/10 s.
    expect(limit.take("a", t)).toBe(100);
    expect(limit.take("b", t)).toBeUndefined();
    expect(limit.take("a", t + 100)).toBeUndefined();
    expect(limit.take("a", t + 100)).toBe(100);
    // A quiet spell refills up to the burst, not beyond.
    for (let i = 0; i < 3; i++) expect(limit.take("a", t + 60_000)).toBeUndefined();
    expect(limit.take("a", t + 60_000)).toBeGreaterThan(0);
  });

  test("behavior: memory is bounded; the least recently seen client is forgotten first", () => {
    const limit = createClientRateLimit({ perSecond: 1, burst: 1, maxClients: 2 });
    expect(limit.take("a", 0)).toBeUndefined();
    expect(limit.take("b", 0)).toBeUndefined();
    expect(limit.take("a", 0)).toBe(1000);
    // c pushes out b (a was seen more recently), so b starts over with a full bucket.
    expect(limit.take("c", 0)).toBeUndefined();
    expect(limit.size).toBe(2);
    expect(limit.take("b", 0)).toBeUndefined();
    expect(limit.take("a", 0)).toBeUndefined();
  });

  test("error: a rate that is not positive is refused", () => {
    expect(() => createClientRateLimit({ perSecond: 0 })).toThrow("perSecond must be positive");
  });
});
