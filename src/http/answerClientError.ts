import type { Duplex } from "node:stream";
import { JSON_HEADERS } from "./jsonHeaders.js";

/**
 * Malformed requests, slow headers and oversized headers are refused by node before routing:
 * their answers stay JSON like every other error.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) return;
  const [status, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? ["431 Request Header Fields Too Large", "Request headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["408 Request Timeout", "The request was not received in time."]
        : ["400 Bad Request", "Malformed HTTP request."];
  const payload = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_HEADERS["Content-Type"]}\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}
