/** A cache of computed values per key for one time bucket; concurrent callers share one computation. */
export type MicroCache<T> = (key: string, compute: (bucketStart: number) => Promise<T>) => Promise<T>;

/**
 * Creates a micro-cache: a value lives for the rest of its `ttlMs` time bucket (aligned to the
 * clock, so a 1000 ms bucket is one wall-clock second) and requests that arrive while it is
 * computed wait for the same promise. Failures are not kept.
 */
export function createMicroCache<T>(ttlMs: number, clock: () => number = Date.now): MicroCache<T> {
  const entries = new Map<string, { bucket: number; value: Promise<T> }>();
  return (key, compute) => {
    const bucket = Math.floor(clock() / ttlMs);
    const entry = entries.get(key);
    if (entry !== undefined && entry.bucket === bucket) return entry.value;
    const value = compute(bucket * ttlMs);
    entries.set(key, { bucket, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  };
}
