import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";

/** Headers of every JSON answer: public read-only data, so CORS is open. */
export const JSON_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Below this many bytes, compressing costs more than it saves: such bodies always go as they are. */
export const GZIP_MIN_BYTES = 1024;

/** True when the request's Accept-Encoding allows gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined) return false;
  return acceptEncoding.split(",").some((part) => {
    const [coding = "", ...params] = part.trim().toLowerCase().split(";");
    if (coding.trim() !== "gzip" && coding.trim() !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * Writes a JSON answer: a value to serialize, or JSON bytes already serialized (a Buffer);
 * gzip when the client accepts it and the body is large; for HEAD, the same status and
 * headers without the body. Error answers (4xx, 5xx) carry `Cache-Control: no-store`: a cache
 * must not keep telling clients a network is down (or a parameter bad) after that changed.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  options: { head?: boolean; headers?: Record<string, string>; gzip?: boolean } = {},
): void {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const compress = options.gzip === true && payload.length >= GZIP_MIN_BYTES;
  const bytes = compress ? gzipSync(payload, { level: 6 }) : payload;
  res.writeHead(status, {
    ...JSON_HEADERS,
    ...options.headers,
    ...(status >= 400 ? { "Cache-Control": "no-store" } : {}),
    ...(compress ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : {}),
    "Content-Length": bytes.length,
  });
  res.end(options.head === true ? undefined : bytes);
}
