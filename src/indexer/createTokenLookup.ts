import type { Address, Token } from "../domain/types.js";
import { SwapgraphError, TokenLookupBusyError } from "../errors.js";
import { createLruCache } from "../lib/createLruCache.js";

/** Looks up caller-named token addresses with bounded cost (see createTokenLookup). */
export interface TokenLookup {
  /** The token at `address`: from the cache, from a lookup in flight, or from one new read. */
  get(address: Address): Promise<Token>;
  /** Forgets an address, e.g. once the indexer holds its token for good. */
  forget(address: Address): void;
  /** Addresses remembered now (answers and refusals), for tests and metrics. */
  readonly size: number;
  /** Reads running now and lookups waiting for one. */
  readonly pending: { running: number; waiting: number };
}

/** Limits of a TokenLookup; the defaults fit one network of a public API. */
export interface TokenLookupOptions {
  /** Reads that may run at once (default 4): each costs one or two eth_calls. */
  concurrency?: number;
  /** Lookups that may wait for a read slot; beyond, TokenLookupBusyError (503) at once (default 100). */
  maxWaiting?: number;
  /** Answers and refusals remembered, least recently used dropped first (default 10,000). */
  maxEntries?: number;
  /** How long a token or a definite refusal (not an ERC-20, invalid metadata) is kept (default 10 min). */
  ttlMs?: number;
  /** How long an RPC failure is kept, so an outage does not turn every request into calls (default 5 s). */
  failureTtlMs?: number;
  /** Clock in ms (tests). */
  now?: () => number;
}

type Outcome = { ok: true; token: Token } | { ok: false; error: unknown };

/**
 * Wraps `read` (metadata, and for a writer pool discovery) for addresses callers name: answers
 * and refusals are remembered in a bounded LRU with expiry, one read per address is in flight at
 * a time (every concurrent caller shares it), at most `concurrency` reads run at once and at
 * most `maxWaiting` wait, the rest are refused with TokenLookupBusyError. Errors that are no
 * SwapgraphError (bugs) are never remembered.
 */
export function createTokenLookup(
  network: string,
  read: (address: Address) => Promise<Token>,
  options: TokenLookupOptions = {},
): TokenLookup {
  const concurrency = options.concurrency ?? 4;
  const maxWaiting = options.maxWaiting ?? 100;
  const ttlMs = options.ttlMs ?? 600_000;
  const failureTtlMs = options.failureTtlMs ?? 5_000;
  const cache = createLruCache<Outcome>({
    maxEntries: options.maxEntries ?? 10_000,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const inFlight = new Map<Address, Promise<Token>>();
  const waiting: (() => void)[] = [];
  let running = 0;

  function release(): void {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next();
  }

  async function lookup(address: Address): Promise<Token> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      const token = await read(address);
      cache.set(address, { ok: true, token }, ttlMs);
      return token;
    } catch (error) {
      if (error instanceof SwapgraphError) {
        // A 4xx is the contract's own answer; a 5xx (RPC trouble) may pass soon.
        cache.set(address, { ok: false, error }, error.status < 500 ? ttlMs : failureTtlMs);
      }
      throw error;
    } finally {
      release();
    }
  }

  return {
    get(address) {
      const key = address.toLowerCase() as Address;
      const known = cache.get(key);
      if (known !== undefined) return known.ok ? Promise.resolve(known.token) : Promise.reject(known.error);
      const flying = inFlight.get(key);
      if (flying !== undefined) return flying;
      if (running >= concurrency && waiting.length >= maxWaiting) {
        return Promise.reject(new TokenLookupBusyError(network));
      }
      const pending = lookup(key).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
      return pending;
    },
    forget(address) {
      cache.delete(address.toLowerCase() as Address);
    },
    get size() {
      return cache.size;
    },
    get pending() {
      return { running, waiting: waiting.length };
    },
  };
}
