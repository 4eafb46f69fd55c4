/**
 * A promise started ahead of its use (the next page of a list): when its user is gone before it
 * awaits it (a list cut off), its failure is not left unhandled; a user that awaits it still gets
 * the error.
 */
export function prefetch<T>(pending: Promise<T>): Promise<T> {
  pending.catch(() => {});
  return pending;
}
