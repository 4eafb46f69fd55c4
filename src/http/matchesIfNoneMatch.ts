/**
 * True when an If-None-Match header names `etag` (or is `*`): the client's copy is current and a
 * 304 answers it. Weak comparison, as RFC 9110 asks for If-None-Match: `W/` prefixes are ignored.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === "") return false;
  // Fast path: the usual revalidation sends back exactly the one tag it got.
  if (header === etag) return true;
  return header.split(",").some((part) => {
    const tag = part.trim();
    return tag === "*" || (tag.startsWith("W/") ? tag.slice(2) : tag) === etag;
  });
}
