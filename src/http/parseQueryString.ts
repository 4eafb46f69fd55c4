/** A parsed query string: one string per parameter, a list when it was repeated. */
export type QueryParams = Record<string, string | string[]>;

/**
 * Parses a query string for the route schemas: an empty parameter counts as missing (as the
 * README says of every parameter), a repeated one becomes a list (which the schemas refuse).
 * The object has no prototype, so a parameter named `__proto__` is only a parameter.
 */
export function parseQueryString(text: string): QueryParams {
  const query: QueryParams = Object.create(null);
  if (text === "") return query;
  // Without escapes ("%", "+") the parameters are the text between "&"s, split at the first "=",
  // as URLSearchParams reads them (a leading "?" dropped): the common case, read without it.
  if (text.includes("%") || text.includes("+")) {
    for (const [name, value] of new URLSearchParams(text)) add(query, name, value);
    return query;
  }
  for (const part of (text.startsWith("?") ? text.slice(1) : text).split("&")) {
    const equals = part.indexOf("=");
    if (equals < 0) continue; // no value: missing, as an empty one
    add(query, part.slice(0, equals), part.slice(equals + 1));
  }
  return query;
}

// An empty parameter counts as missing; a repeated one becomes a list.
function add(query: QueryParams, name: string, value: string): void {
  if (value === "") return;
  const seen = query[name];
  query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
}
