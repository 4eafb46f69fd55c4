// Any scheme://... up to whitespace, a quote, a bracket or a backslash (a JSON escape in a log line).
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>\\]+/gi;
// Sentence punctuation after a URL stays outside it ("failed at https://x/KEY.").
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * A URL with its secrets masked: the password of its user info and, for http(s) and ws(s), the
 * whole path, query and fragment (hosted RPC providers put API keys there: /v3/KEY, ?apikey=).
 * Other schemes (postgres://) keep their path (the database name) but not their query.
 * @internal exported for tests, which call this step alone.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "[url]";
  }
  const web = /^(https?|wss?):$/.test(parsed.protocol);
  const user =
    parsed.username === "" && parsed.password === ""
      ? ""
      : `${parsed.username}${parsed.password === "" ? "" : ":***"}@`;
  const prefix = `${parsed.protocol}//${user}${parsed.host}`;
  if (web) {
    const bare =
      (parsed.pathname === "/" || parsed.pathname === "") && parsed.search === "" && parsed.hash === "";
    return bare ? prefix : `${prefix}/***`;
  }
  return `${prefix}${parsed.pathname}${parsed.search === "" ? "" : "?***"}`;
}

/**
 * Text with every URL in it passed through `replace` (default redactUrl): the one place that
 * keeps RPC keys and database passwords out of log lines, status messages and metrics.
 */
export function redactSecrets(text: string, replace: (url: string) => string = redactUrl): string {
  if (!text.includes("://")) return text;
  return text.replace(URL_PATTERN, (match) => {
    const tail = TRAILING.exec(match)?.[0] ?? "";
    return replace(match.slice(0, match.length - tail.length)) + tail;
  });
}
