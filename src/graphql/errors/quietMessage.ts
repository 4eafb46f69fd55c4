/** What replaces a suggestion (the text GraphQL Armor's block-field-suggestions writes). */
const SUGGESTION_MASK = "[Suggestion hidden]";

/**
 * Longest quoted value an error message repeats, in characters; the rest is cut.
 * @internal exported for tests, which pin this limit.
 */
export const MAX_QUOTED_CHARS = 64;

// graphql-js writes suggestions as ` Did you mean "a"?`, ` Did you mean "a" or "b"?` and
// ` Did you mean the enum value "a"?` (fields, arguments, types, enum values, in validation
// and in variable coercion alike): everything from "Did you mean" to its question mark.
const SUGGESTION = /Did you mean [^?]*\?/g;
// Every double-quoted run, left to right (graphql-js prints values JSON-escaped, so a value holds
// no bare quote): matching the short ones too keeps each opening quote paired with its own close.
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/**
 * A GraphQL error message as a caller may read it: no "Did you mean ..." (the schema's names are
 * not offered to whoever probes it) and no quoted value longer than MAX_QUOTED_CHARS (graphql-js
 * quotes an invalid variable twice: 90 KB in would be 180 KB out).
 */
export function quietMessage(message: string): string {
  return message
    .replace(SUGGESTION, SUGGESTION_MASK)
    .replace(QUOTED, (quoted, inner: string) =>
      inner.length > MAX_QUOTED_CHARS ? `"${inner.slice(0, MAX_QUOTED_CHARS)}..."` : quoted,
    );
}
