import type { ProviderFaultName } from "./providerFaults.js";

/** What one method cost. */
interface MethodUsage {
  /** Calls the node answered (errors included; refused ones not). */
  calls: number;
  /** Of those, answered with a JSON-RPC error. */
  errors: number;
  /** Bytes of the answers (each call's own JSON in a batch). */
  bytes: number;
  computeUnits: number;
}

/** What went through the emulator since it started or was reset. */
export interface ProviderUsage {
  byMethod: Map<string, MethodUsage>;
  total: MethodUsage;
  /** HTTP requests received (a JSON-RPC batch is one). */
  httpRequests: number;
  /** Bytes of the answered bodies as sent: gzipped where the client accepted it. */
  wireBytes: number;
  /** JSON-RPC batches among them. */
  batches: number;
  /** Calls refused before reaching the node (rate limit, oversized batch): answered, not charged. */
  refused: number;
  /** Calls each fault answered or changed. */
  faults: Record<ProviderFaultName, number>;
  /**
   * Wall time (ms) during which at least one request was waiting for the node: the part of a
   * client's run the node's answering bounds, whatever the client does with the answers.
   */
  nodeBusyMs: number;
}

/** The usage being counted, and how to count and forget it. */
export interface UsageMeter {
  /** The live counts (replaced by reset): the request handler adds to them. */
  readonly current: ProviderUsage;
  /** Counts one answered call: its method's price, its answer's bytes, whether it was an error. */
  count(method: string, bytes: number, isError: boolean): void;
  /** Marks a request's wait for the node as begun; the returned function marks it ended. */
  nodeWait(): () => void;
  /** A copy of the counts so far. */
  snapshot(): ProviderUsage;
  reset(): void;
}

/** Counts calls, errors, answer bytes and compute units by method at `prices` (else `defaultPrice`). */
export function createUsageMeter(prices: Readonly<Record<string, number>>, defaultPrice: number): UsageMeter {
  const emptyFaults = (): Record<ProviderFaultName, number> => ({
    logRange: 0,
    logCount: 0,
    batchSize: 0,
    rateLimit: 0,
    lag: 0,
    prunedState: 0,
  });
  let usage: ProviderUsage;
  // Requests waiting for the node, and since when at least one has been (while any is).
  let waiting = 0;
  let busySince = 0;
  const resetUsage = () => {
    busySince = performance.now();
    usage = {
      byMethod: new Map(),
      total: { calls: 0, errors: 0, bytes: 0, computeUnits: 0 },
      httpRequests: 0,
      wireBytes: 0,
      batches: 0,
      refused: 0,
      faults: emptyFaults(),
      nodeBusyMs: 0,
    };
  };
  resetUsage();
  return {
    get current() {
      return usage;
    },
    count(method, bytes, isError) {
      const entry = usage.byMethod.get(method) ?? { calls: 0, errors: 0, bytes: 0, computeUnits: 0 };
      const price = prices[method] ?? defaultPrice;
      for (const target of [entry, usage.total]) {
        target.calls++;
        target.bytes += bytes;
        target.computeUnits += price;
        if (isError) target.errors++;
      }
      usage.byMethod.set(method, entry);
    },
    nodeWait() {
      if (waiting++ === 0) busySince = performance.now();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--waiting === 0) usage.nodeBusyMs += performance.now() - busySince;
      };
    },
    snapshot() {
      const now = performance.now();
      return {
        ...usage,
        nodeBusyMs: usage.nodeBusyMs + (waiting > 0 ? now - busySince : 0),
        byMethod: new Map([...usage.byMethod].map(([method, entry]) => [method, { ...entry }])),
        total: { ...usage.total },
        faults: { ...usage.faults },
      };
    },
    reset: resetUsage,
  };
}
