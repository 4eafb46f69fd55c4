/** A bounded map whose entries also expire: the least recently used go first once it is full. */
export interface ExpiringLru<K, V> {
  /** The value if present and not expired (then marked as just used). */
  get(key: K): V | undefined;
  /** Stores a value for `ttlMs` (replacing the key's old one), evicting the least recently used. */
  set(key: K, value: V, ttlMs: number): void;
  delete(key: K): void;
  /** Entries held now, expired ones not yet dropped included. */
  readonly size: number;
}

/**
 * Creates an LRU map of at most `maxEntries` entries, each with its own expiry. A Map keeps
 * insertion order, so re-inserting on every hit makes its first key the least recently used.
 * `now` (ms) is injectable for tests.
 */
export function createExpiringLru<K, V>(options: {
  maxEntries: number;
  now?: () => number;
}): ExpiringLru<K, V> {
  const { maxEntries } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be at least 1.");
  const now = options.now ?? Date.now;
  const entries = new Map<K, { value: V; expiresAt: number }>();

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs) {
      entries.delete(key);
      if (!(ttlMs > 0)) return;
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
