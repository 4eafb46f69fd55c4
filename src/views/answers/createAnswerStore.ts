import { createLruCache } from "../../lib/createLruCache.js";

/** What the store counts of a kept answer: its bytes (and their gzip once made). */
interface KeptBytes {
  body: Buffer;
  gzipped?: Buffer;
}

/**
 * The one store of market answers the HTTP edge keeps: answer bytes by request key, each valid
 * for the indexed state it was made from (and, when given, until a time). A request of another
 * state finds nothing, so no invalidation is needed: a new indexed block is a new state.
 */
export interface AnswerStore {
  /** The answer kept under `key` when it was made in `state` and has not expired at `nowMs`. */
  get<A extends KeptBytes>(key: string, state: string, nowMs: number): A | undefined;
  /** Keeps `answer` under `key` for `state`, until `expiresAtMs` when given. */
  set(key: string, state: string, answer: KeptBytes, expiresAtMs?: number): void;
  /** Answers kept now. */
  readonly size: number;
}

interface Entry {
  state: string;
  expiresAtMs: number;
  answer: KeptBytes;
}

// Map slot, entry object, ETags and headers of one kept answer, roughly.
const ENTRY_OVERHEAD_BYTES = 400;

/**
 * Creates the answer store: at most `maxEntries` answers and `maxBytes` of bytes (keys and gzip
 * copies included), least recently used out first. A quote is ~300 bytes, so the byte bound is
 * what holds when many distinct token pairs are asked.
 */
export function createAnswerStore(options: { maxEntries?: number; maxBytes?: number } = {}): AnswerStore {
  const entries = createLruCache<Entry>({
    maxEntries: options.maxEntries ?? 10_000,
    maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
    sizeOf: (key, entry) =>
      ENTRY_OVERHEAD_BYTES + key.length + entry.answer.body.length + (entry.answer.gzipped?.length ?? 0),
  });
  return {
    get<A extends KeptBytes>(key: string, state: string, nowMs: number): A | undefined {
      const entry = entries.get(key);
      return entry !== undefined && entry.state === state && entry.expiresAtMs > nowMs
        ? (entry.answer as A)
        : undefined;
    },
    set(key, state, answer, expiresAtMs = Number.POSITIVE_INFINITY) {
      entries.set(key, { state, expiresAtMs, answer });
    },
    get size() {
      return entries.size;
    },
  };
}
