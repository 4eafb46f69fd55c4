import type { DocumentNode } from "graphql";
import { createLruCache, type LruCache } from "../../lib/createLruCache.js";

// Heap bytes of a parsed document per character of its source, locations included: measured
// 81-93 on graphql 16 (a 118-character quote and a 16,000-character document, 200 of each held).
const AST_BYTES_PER_SOURCE_CHAR = 100;
// A parse error keeps little besides the source text (its key): a message and a location.
const ERROR_BYTES = 2_048;

/**
 * Byte bounds of the parsed-document caches (createDocumentCaches).
 * @internal exported for tests, which pin these limits.
 */
export const DOCUMENT_CACHE_LIMITS = {
  maxEntries: 1_024,
  documentBytes: 32 * 1024 * 1024,
  errorBytes: 4 * 1024 * 1024,
} as const;

/**
 * The caches yoga keeps parsed documents and parse errors in, keyed by the document's text,
 * bounded by bytes as well as by count: yoga's own hold 1,024 entries whatever their size, and a
 * flood of distinct documents near the token limit would hold about 1 GB of syntax trees until
 * they expired. Validation results hang off the cached documents (a WeakMap in yoga) and go with them.
 */
export function createDocumentCaches(
  limits: { documentBytes: number; errorBytes: number } = DOCUMENT_CACHE_LIMITS,
): { documentCache: LruCache<DocumentNode>; errorCache: LruCache<unknown> } {
  return {
    documentCache: createLruCache<DocumentNode>({
      maxEntries: DOCUMENT_CACHE_LIMITS.maxEntries,
      maxBytes: limits.documentBytes,
      sizeOf: (key) => key.length * (2 + AST_BYTES_PER_SOURCE_CHAR),
    }),
    errorCache: createLruCache<unknown>({
      maxEntries: DOCUMENT_CACHE_LIMITS.maxEntries,
      maxBytes: limits.errorBytes,
      sizeOf: (key) => key.length * 2 + ERROR_BYTES,
    }),
  };
}
