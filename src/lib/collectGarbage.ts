import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let fullGc: (() => void) | undefined;

/**
 * Runs one full garbage collection now (V8's mark-compact of the whole heap), with or without
 * `--expose-gc`.
 *
 * Why: a bulk phase (the backfill, the first rendering of the settled swap hours) grows V8's old
 * generation to a multiple of what it keeps alive, and V8 collects it only when allocation reaches
 * that limit again, which a server that then only follows the head may not do for hours. Measured
 * on a dense day (docs/benchmarks.md, Memory after the backfill): 212 MB of heap at /ready, 37 MB of
 * it live, the RSS still 355 MB after 45 s of idling, 158 MB after one full collection.
 *
 * Without the flag the collector is taken from a new context made while `--expose-gc` is set for
 * a moment, as Jest's leak detector does (setFlagsFromString affects only contexts made after it).
 */
export function collectGarbage(): void {
  fullGc ??= exposedGc();
  fullGc();
}

function exposedGc(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === "function") return own;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  // Not exposed to this process's own code: only the collector taken here.
  setFlagsFromString("--no-expose-gc");
  return gc;
}
