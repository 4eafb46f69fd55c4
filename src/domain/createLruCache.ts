/** A bounded map: the least recently used entries go first once either limit is passed. */
export interface LruCache<V> {
  /** The value, marked as just used; undefined when absent. */
  get(key: string): V | undefined;
  /** Stores a value (replacing the key's old one) and evicts until both limits hold again. */
  set(key: string, value: V): void;
  delete(key: string): void;
  /** Entries held now. */
  readonly size: number;
  /** Bytes held now, as `sizeOf` counts them. */
  readonly bytes: number;
}

/** Options of createLruCache. */
export interface LruCacheOptions<V> {
  /** At most this many entries (at least 1). */
  maxEntries: number;
  /** At most this many bytes over all entries; a single value larger than this is not kept. */
  maxBytes: number;
  /** The bytes one entry costs (its key included). */
  sizeOf: (key: string, value: V) => number;
}

/**
 * Creates an LRU cache bounded by entry count and bytes. A Map keeps insertion order, so
 * re-inserting on every hit makes its first key the least recently used one.
 */
export function createLruCache<V>(options: LruCacheOptions<V>): LruCache<V> {
  const { maxEntries, maxBytes, sizeOf } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be at least 1.");
  const entries = new Map<string, { value: V; bytes: number }>();
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
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const size = sizeOf(key, value);
      if (size > maxBytes) return;
      entries.set(key, { value, bytes: size });
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
