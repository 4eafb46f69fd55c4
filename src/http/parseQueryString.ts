/** A parsed query string: one string per parameter, a list when it was repeated. */
export type QueryParams = Record<string, string | string[]>;

/**
 * Parses a query string for the route schemas: an empty parameter counts as missing (as the
 * README says of every parameter), a repeated one becomes a list (which the schemas refuse).
 * The object has no prototype, so a parameter named `__proto__` is only a parameter.
 */
export function parseQueryString(text: string): QueryParams {
  const query: QueryParams = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === "") continue;
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}
