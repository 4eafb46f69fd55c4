/**
 * `fn` over `items` with at most `limit` calls running at once, the results in the items' order;
 * rejects with the first failure (calls already running are left to settle).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!(limit >= 1)) throw new RangeError(`mapWithConcurrency: limit must be at least 1, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
