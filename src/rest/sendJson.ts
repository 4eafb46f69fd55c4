import type { ServerResponse } from "node:http";

/** Headers of every JSON answer: public read-only data, so CORS is open. */
export const JSON_HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Access-Control-Allow-Origin": "*",
  "X-Content-Type-Options": "nosniff",
} as const;

/**
 * Writes a JSON answer: a value to serialize, or JSON bytes already serialized (a Buffer);
 * for HEAD, the same status and headers without the body.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  options: { head?: boolean; headers?: Record<string, string> } = {},
): void {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  res.writeHead(status, { ...JSON_HEADERS, ...options.headers, "Content-Length": payload.length });
  res.end(options.head === true ? undefined : payload);
}
