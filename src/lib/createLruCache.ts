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

/** One entry, in the list of entries from least to most recently used. */
interface Node<V> {
  key: string;
  value: V;
  bytes: number;
  expiresAt: number;
  older: Node<V> | undefined;
  newer: Node<V> | undefined;
}

/**
 * Creates an LRU cache bounded by entry count and, optionally, bytes; entries may expire. The
 * entries are a list from least to most recently used beside a Map of them by key: a hit is one
 * lookup and a few pointer moves (re-inserting into the Map on every hit cost a delete and a set,
 * hashing the key each time, on the hottest paths: kept answers).
 */
export function createLruCache<V>(options: LruCacheOptions<V>): LruCache<V> {
  const { maxEntries, maxBytes = Number.POSITIVE_INFINITY, sizeOf = () => 0 } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be at least 1.");
  const now = options.now ?? Date.now;
  const entries = new Map<string, Node<V>>();
  let oldest: Node<V> | undefined;
  let newest: Node<V> | undefined;
  let bytes = 0;

  function unlink(node: Node<V>): void {
    if (node.older === undefined) oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === undefined) newest = node.older;
    else node.newer.older = node.older;
    node.older = undefined;
    node.newer = undefined;
  }

  function append(node: Node<V>): void {
    node.older = newest;
    if (newest === undefined) oldest = node;
    else newest.newer = node;
    newest = node;
  }

  function remove(key: string): void {
    const node = entries.get(key);
    if (node === undefined) return;
    entries.delete(key);
    unlink(node);
    bytes -= node.bytes;
  }

  return {
    get(key) {
      const node = entries.get(key);
      if (node === undefined) return undefined;
      // (No clock read for entries kept without a ttl.)
      if (node.expiresAt !== Number.POSITIVE_INFINITY && node.expiresAt <= now()) {
        remove(key);
        return undefined;
      }
      if (node !== newest) {
        unlink(node);
        append(node);
      }
      return node.value;
    },
    set(key, value, ttlMs) {
      remove(key);
      if (ttlMs !== undefined && !(ttlMs > 0)) return;
      const size = sizeOf(key, value);
      if (size > maxBytes) return;
      const expiresAt = ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs;
      const node: Node<V> = { key, value, bytes: size, expiresAt, older: undefined, newer: undefined };
      entries.set(key, node);
      append(node);
      bytes += size;
      while ((entries.size > maxEntries || bytes > maxBytes) && oldest !== undefined) remove(oldest.key);
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
