import { parse } from "graphql";
import { describe, expect, test } from "vitest";
import {
  createDocumentCaches,
  DOCUMENT_CACHE_LIMITS,
} from "../../src/graphql/plugins/createDocumentCaches.js";

/** A distinct valid document of about `chars` characters. */
function documentOf(i: number, chars: number): string {
  const fields = Array.from(
    { length: Math.ceil(chars / 60) },
    (_, k) => `f${k}: quote(sellAmount: "${i}.${k}") { price }`,
  );
  return `query Q${i} { ${fields.join(" ")} }`;
}

describe("createDocumentCaches", () => {
  test("behavior: a flood of large distinct documents is held to the byte bound, the newest kept", () => {
    const { documentCache } = createDocumentCaches();
    const sources = Array.from({ length: 400 }, (_, i) => documentOf(i, 10_000));
    for (const source of sources) documentCache.set(source, parse(source));
    expect(documentCache.bytes).toBeLessThanOrEqual(DOCUMENT_CACHE_LIMITS.documentBytes);
    // 10 KB documents: the bytes bind long before the count does.
    expect(documentCache.size).toBeLessThan(100);
    expect(documentCache.get(sources.at(-1)!)).toBeDefined();
    expect(documentCache.get(sources[0]!)).toBeUndefined();
  });

  test("behavior: small documents are held up to the count bound", () => {
    const { documentCache, errorCache } = createDocumentCaches();
    for (let i = 0; i < 2_000; i++) {
      const source = `{ quote(sellAmount: "${i}") { price } }`;
      documentCache.set(source, parse(source));
      errorCache.set(source, new Error("x"));
    }
    expect(documentCache.size).toBe(DOCUMENT_CACHE_LIMITS.maxEntries);
    expect(errorCache.size).toBe(DOCUMENT_CACHE_LIMITS.maxEntries);
  });
});
