import { describe, expect, test } from "vitest";
import { parseQueryString } from "../../src/http/parseQueryString.js";

// What URLSearchParams makes of a query string, with the same rules (empty is missing, repeated is a list).
function throughUrlSearchParams(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === "") continue;
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

describe("parseQueryString", () => {
  test("args: plain and escaped query strings read as URLSearchParams reads them", () => {
    const texts = [
      "",
      "?",
      "sellToken=CAKE&buyToken=USDT",
      "?sellToken=CAKE",
      "??a=1",
      "a=1&&b=2&",
      "a&b=&c=3",
      "=x&a==b&a=c=d",
      "a=1&a=2&a=3",
      "network=bsc&limit=10&cursor=abc_DEF-123",
      "a=%41%42&b=x+y&c=%2B",
      "a=1+1&a=%",
      "__proto__=1&constructor=2",
      "sellToken=0x26dBcB50fdbf963a1142f9D80d16f1ff99b00b0B&buyToken=usdt",
    ];
    for (const text of texts) {
      expect({ ...parseQueryString(text) }, text).toEqual({ ...throughUrlSearchParams(text) });
    }
  });

  test("behavior: the object has no prototype; empty parameters are missing and repeated ones a list", () => {
    const query = parseQueryString("__proto__=x&a=&b=1&b=2");
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.entries(query)).toContainEqual(["__proto__", "x"]);
    expect("a" in query).toBe(false);
    expect(query.b).toEqual(["1", "2"]);
  });
});
