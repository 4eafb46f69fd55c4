import { setTimeout as delay } from "node:timers/promises";
import { createLruCache } from "../../lib/createLruCache.js";

/** What the store counts of a kept answer: its bytes (and their gzip once made). */
interface KeptBytes {
  body: Buffer;
  gzipped?: Buffer;
}

/** What ends a making when it goes away before it finishes: the request's socket. */
interface Closable {
  once(event: "close", listener: () => void): unknown;
}

/** The request making an answer: it tells the requests waiting for it when it moves on and ends. */
interface Making {
  /** A piece was made: the waiters wait on. */
  progress(): void;
  /** Made (kept or not), failed, or the client left: the waiters stop waiting and look again. */
  finish(): void;
  /**
   * Passes `pieces` on, each one progress; when they end within `maxBytes`, keeps `build` of their
   * bytes until `expiresAtMs`, then finishes (a larger answer is streamed but not kept).
   */
  keepWhileSmall(
    pieces: AsyncIterable<Buffer>,
    keep: { maxBytes: number; expiresAtMs: number; build: (body: Buffer) => KeptBytes },
  ): AsyncGenerator<Buffer>;
}

/**
 * The one store of market answers the edges keep: answer bytes by request key, each valid for the
 * indexed state it was made from (and, when given, until a time). A request of another state finds
 * nothing, so no invalidation is needed: a new indexed block is a new state. While one request
 * makes an answer, the others asking for it wait for its copy instead of each making it.
 */
export interface AnswerStore {
  /** The answer kept under `key` when it was made in `state` and has not expired at `nowMs`. */
  get<A extends KeptBytes>(key: string, state: string, nowMs: number): A | undefined;
  /** Keeps `answer` under `key` for `state`, until `expiresAtMs` when given. */
  set(key: string, state: string, answer: KeptBytes, expiresAtMs?: number): void;
  /**
   * The answer kept under `key` for `state`, or, while another request makes it, its copy: waits
   * as long as that making moves on (a piece at least every second), then looks again.
   */
  find<A extends KeptBytes>(key: string, state: string, nowMs: number): Promise<A | undefined>;
  /**
   * Makes this request the one making `key` for `state` (unless another is: then only keeping),
   * until it finishes or `closed` closes, whichever comes first.
   */
  make(key: string, state: string, closed: Closable): Making;
  /** Answers kept now. */
  readonly size: number;
}

interface Entry {
  state: string;
  expiresAtMs: number;
  answer: KeptBytes;
}

/** An answer being made now, by key and state. */
interface Pending {
  done: Promise<void>;
  lastProgressMs: number;
}

/** How long an answer made at an indexed block is kept, and what clients are told they may keep. */
export interface BlockFreshness {
  expiresAtMs: number;
  cacheControl: string;
}

const cacheControls = new Map<number, string>();

/**
 * The freshness of an answer made at a network's indexed block, the one rule of the quote, the
 * 7-day volumes, the listings and DEX Screener: kept for that block (the store's state) and one
 * poll interval at most (the pools and aggregates can run ahead of the status' block until the
 * next poll, and a reorg can bring the same block number back with other contents); a client or
 * shared cache may keep it about one poll (a new block can come no sooner) and show it three more
 * while it revalidates. (/api/swaps_24h's window moves every second: its lists are kept for their
 * block and second, "no-cache"; GraphQL answers for their market state.)
 */
export function blockFreshness(pollIntervalMs: number, nowMs: number): BlockFreshness {
  let cacheControl = cacheControls.get(pollIntervalMs);
  if (cacheControl === undefined) {
    const maxAge = Math.max(1, Math.round(pollIntervalMs / 1000));
    cacheControl = `public, max-age=${maxAge}, stale-while-revalidate=${3 * maxAge}`;
    cacheControls.set(pollIntervalMs, cacheControl);
  }
  return { expiresAtMs: nowMs + pollIntervalMs, cacheControl };
}

// Map slot, entry object, ETags and headers of one kept answer, roughly.
const ENTRY_OVERHEAD_BYTES = 400;

// How long a request waits for another one's making of the same answer to move on: a making whose
// client reads nothing must not hold the rest (they make their own after it).
const MAKING_STALL_MS = 1_000;

/**
 * Creates the answer store: at most `maxEntries` answers and `maxBytes` of bytes (keys and gzip
 * copies included), least recently used out first. A quote is ~300 bytes, so the byte bound is
 * what holds when many distinct token pairs are asked.
 */
export function createAnswerStore(
  options: { maxEntries?: number; maxBytes?: number; stallMs?: number } = {},
): AnswerStore {
  const stallMs = options.stallMs ?? MAKING_STALL_MS;
  const entries = createLruCache<Entry>({
    maxEntries: options.maxEntries ?? 10_000,
    maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
    sizeOf: (key, entry) =>
      ENTRY_OVERHEAD_BYTES + key.length + entry.answer.body.length + (entry.answer.gzipped?.length ?? 0),
  });
  const pending = new Map<string, Pending>();

  function get<A extends KeptBytes>(key: string, state: string, nowMs: number): A | undefined {
    const entry = entries.get(key);
    return entry !== undefined && entry.state === state && entry.expiresAtMs > nowMs
      ? (entry.answer as A)
      : undefined;
  }

  function set(key: string, state: string, answer: KeptBytes, expiresAtMs = Number.POSITIVE_INFINITY) {
    entries.set(key, { state, expiresAtMs, answer });
  }

  async function wait(making: Pending): Promise<void> {
    let finished = false;
    void making.done.then(() => (finished = true));
    while (!finished) {
      const left = making.lastProgressMs + stallMs - Date.now();
      if (left <= 0) return;
      await Promise.race([making.done, delay(left, undefined, { ref: false })]);
    }
  }

  function make(key: string, state: string, closed: Closable): Making {
    const id = `${key}\n${state}`;
    let making: Pending | undefined;
    let settle: () => void = () => undefined;
    if (!pending.has(id)) {
      making = { done: new Promise<void>((resolve) => (settle = resolve)), lastProgressMs: Date.now() };
      pending.set(id, making);
      // However it ends (complete, too large to keep, an error answer, client gone), the wait ends.
      closed.once("close", () => finish());
    }
    const progress = () => {
      if (making !== undefined) making.lastProgressMs = Date.now();
    };
    const finish = () => {
      settle();
      if (making !== undefined && pending.get(id) === making) pending.delete(id);
    };
    return {
      progress,
      finish,
      async *keepWhileSmall(pieces, keep) {
        let kept: Buffer[] | undefined = [];
        let keptBytes = 0;
        for await (const piece of pieces) {
          progress();
          if (kept !== undefined) {
            keptBytes += piece.length;
            if (keptBytes > keep.maxBytes) kept = undefined;
            else kept.push(piece);
          }
          yield piece;
        }
        if (kept !== undefined) set(key, state, keep.build(Buffer.concat(kept)), keep.expiresAtMs);
        finish();
      },
    };
  }

  return {
    get,
    set,
    async find<A extends KeptBytes>(key: string, state: string, nowMs: number) {
      const kept = get<A>(key, state, nowMs);
      const making = kept === undefined ? pending.get(`${key}\n${state}`) : undefined;
      if (making === undefined) return kept;
      await wait(making);
      return get<A>(key, state, nowMs);
    },
    make,
    get size() {
      return entries.size;
    },
  };
}
