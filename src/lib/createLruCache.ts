/** A bounded map: the least recently used entries go first once a limit is passed. */
export interface LruCache<V> {
  /** The value, marked as just used; undefined when absent or expired. */
  get(key: string): V | undefined;
  /**
   * Stores a value (replacing the key's old one), for `ttlMs` when given (a ttl of 0 or less
   * keeps nothing), and evicts until every limit holds again.
   */
  set(key: string, value: V, ttlMs?: number): void;
  delete(key: string): void;
  /** Entries held now (expired ones not yet looked at included). */
  readonly size: number;
  /** Bytes held now, as `sizeOf` counts them (0 without a byte bound). */
  readonly bytes: number;
}

/** Options of createLruCache. */
export interface LruCacheOptions<V> {
  /** At most this many entries (at least 1). */
  maxEntries: number;
  /** At most this many bytes over all entries, as `sizeOf` counts them; a larger value is not kept. */
  maxBytes?: number;
  /** The bytes one entry costs (its key included); required with `maxBytes`. */
  sizeOf?: (key: string, value: V) => number;
  /** Clock in ms for expiry (tests). */
  now?: () => number;
}

/**
 * Creates an LRU cache bounded by entry count and, optionally, bytes; entries may expire. A Map
 * keeps insertion order, so re-inserting on every hit makes its first key the least recently used.
 */
export function createLruCache<V>(options: LruCacheOptions<V>): LruCache<V> {
  const { maxEntries, maxBytes = Number.POSITIVE_INFINITY, sizeOf = () => 0 } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be at least 1.");
  const now = options.now ?? Date.now;
  const entries = new Map<string, { value: V; bytes: number; expiresAt: number }>();
  let bytes = 0;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        remove(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs) {
      remove(key);
      if (ttlMs !== undefined && !(ttlMs > 0)) return;
      const size = sizeOf(key, value);
      if (size > maxBytes) return;
      const expiresAt = ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs;
      entries.set(key, { value, bytes: size, expiresAt });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        remove(oldest.value);
      }
    },
    delete: remove,
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
  };
}
