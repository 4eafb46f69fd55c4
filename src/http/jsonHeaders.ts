/** Headers of every JSON answer (CORS is the framework's: any origin, no credentials). */
export const JSON_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Below this many bytes, compressing costs more than it saves: such bodies always go as they are. */
export const GZIP_MIN_BYTES = 1024;

// The last Accept-Encoding read and what it said: clients send the same one request after request.
let lastAcceptEncoding: string | undefined;
let lastAccepts = false;

/** True when the request's Accept-Encoding allows gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  if (acceptEncoding === lastAcceptEncoding) return lastAccepts;
  const accepts = acceptEncoding.split(",").some((part) => {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
  lastAcceptEncoding = acceptEncoding;
  lastAccepts = accepts;
  return accepts;
}
