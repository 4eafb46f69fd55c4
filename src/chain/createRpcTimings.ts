/**
 * What the "time" cost model knows of an RPC client's URLs, measured from its HTTP requests:
 * the round trip of a small answer, the milliseconds each further byte of an answer takes, and
 * the bytes an answer of each method carries. Pure input of the read choices (readsWholeBlock,
 * chooseLogMode).
 */
export interface RpcTimeSample {
  /** Milliseconds of a request whose answer is small (round trip and the node's fixed work). */
  latencyMs: number;
  /** Milliseconds each byte of an answer adds (1 / throughput). */
  msPerByte: number;
  /** Whether that figure was measured (false: PRIOR_MS_PER_BYTE, no large answer seen yet). */
  throughputMeasured: boolean;
  /**
   * Bytes one call's answer carries, per method (a running average; only methods seen alone or
   * in batches of their own). A block with its transactions is `eth_getBlockByNumber+transactions`.
   */
  answerBytes: Readonly<Record<string, number>>;
  /** Whether concurrent calls go out as one JSON-RPC batch (then they share one round trip). */
  batched: boolean;
}

/** The measuring side of an RPC client: fed by its transport, read by the indexer. */
export interface RpcTimings {
  /** One HTTP request: the calls it carried (method keys), its wall time to the last byte, its answer's bytes. */
  record(methods: readonly string[], ms: number, bytes: number): void;
  /** What is known so far; undefined until a few small answers gave the round trip. */
  sample(): RpcTimeSample | undefined;
}

// Answers up to SMALL_BYTES measure the round trip; from LARGE_BYTES on, what they take beyond
// it measures throughput. Between the two an answer says too little of either.
const SMALL_BYTES = 4_096;
const LARGE_BYTES = 16_384;
// Running averages that follow a change of the URL or its load within a few dozen requests.
const WEIGHT = 0.1;
// Round trips measured before the sample is trusted.
const MIN_SMALL = 3;
/**
 * A remote node's throughput before any large answer was timed: 5 MB/s.
 * @internal exported for tests.
 */
export const PRIOR_MS_PER_BYTE = 1 / 5_000;
// Faster than this is measurement noise (a local node answers faster than the clock resolves).
const MIN_MS_PER_BYTE = 1 / 1_000_000;
// Methods whose answer sizes are kept (a fixed set: memory stays constant).
const MAX_METHODS = 32;

/** Creates a client's timing meter: constant memory (running averages, a bounded method table). */
export function createRpcTimings(batched: boolean): RpcTimings {
  let latency = 0;
  let smallSeen = 0;
  let msPerByte = PRIOR_MS_PER_BYTE;
  let largeSeen = 0;
  const answerBytes = new Map<string, number>();
  const average = (old: number, value: number, seen: number) =>
    // The first samples count fully, so that the average starts from what was measured.
    seen === 0 ? value : old + (value - old) * Math.max(WEIGHT, 1 / (seen + 1));

  return {
    record(methods, ms, bytes) {
      if (methods.length === 0 || !(ms >= 0) || !(bytes > 0)) return;
      const first = methods[0]!;
      if (methods.every((method) => method === first)) {
        const known = answerBytes.get(first);
        const perCall = bytes / methods.length;
        if (known !== undefined) answerBytes.set(first, known + (perCall - known) * WEIGHT);
        else if (answerBytes.size < MAX_METHODS) answerBytes.set(first, perCall);
      }
      if (bytes <= SMALL_BYTES) {
        latency = average(latency, ms, smallSeen);
        smallSeen++;
      } else if (bytes >= LARGE_BYTES && smallSeen >= MIN_SMALL) {
        const perByte = Math.max(MIN_MS_PER_BYTE, (ms - latency) / bytes);
        msPerByte = average(msPerByte, perByte, largeSeen);
        largeSeen++;
      }
    },
    sample() {
      if (smallSeen < MIN_SMALL) return undefined;
      return {
        latencyMs: latency,
        msPerByte,
        throughputMeasured: largeSeen > 0,
        answerBytes: Object.fromEntries(answerBytes),
        batched,
      };
    },
  };
}
