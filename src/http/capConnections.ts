import type { Server } from "node:http";
import type { Socket } from "node:net";
import { countEvent } from "../lib/countEvent.js";
import { JSON_HEADERS } from "./jsonHeaders.js";

/** Options of capConnections. */
export interface ConnectionCapOptions {
  /** Open client connections served at most. */
  maxConnections: number;
  /** Retry-After of the refusal, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** How long a refused connection may stay open to read its 503 (ms, default 1,000). */
  lingerMs?: number;
  /** Refused connections kept open at once; past it, more are closed without an answer (default 1,024). */
  maxLingering?: number;
}

/**
 * Caps the connections `server` serves. node's own `maxConnections` closes a connection past
 * the cap without a byte, which a client cannot tell from a crash; here it gets a short JSON 503
 * with Retry-After and Connection: close, written as soon as it connects, and is closed once the
 * client has it (or after `lingerMs`). What it sends meanwhile is read and dropped, so the close
 * is clean. Refusals cost one small write each; a flood past `maxLingering` refused sockets
 * still open is closed at once, so the refusals themselves cannot hold file descriptors.
 */
export function capConnections(server: Server, options: ConnectionCapOptions): void {
  const retryAfter = options.retryAfterSeconds ?? 1;
  const lingerMs = options.lingerMs ?? 1_000;
  const maxLingering = options.maxLingering ?? 1_024;
  const body = JSON.stringify({
    error: `The server is at its connection limit; retry in ${retryAfter} s.`,
  });
  const refusal =
    `HTTP/1.1 503 Service Unavailable\r\nContent-Type: ${JSON_HEADERS["Content-Type"]}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nRetry-After: ${retryAfter}\r\n` +
    `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`;
  // node's HTTP handling is the server's 'connection' listener: it runs only under the cap.
  const serve = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  let open = 0;
  let lingering = 0;

  function refuse(socket: Socket): void {
    countEvent("http_refusals", { reason: "connection_cap" });
    socket.on("error", () => undefined);
    if (lingering >= maxLingering) {
      socket.destroy();
      return;
    }
    lingering++;
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => {
      lingering--;
      clearTimeout(timer);
    });
    // The server is half-open by default: a client that has read the answer and ended is let go.
    socket.once("end", () => socket.destroy());
    socket.resume();
    socket.end(refusal);
  }

  server.on("connection", (socket: Socket) => {
    if (open >= options.maxConnections) {
      refuse(socket);
      return;
    }
    open++;
    socket.once("close", () => open--);
    for (const listener of serve) listener.call(server, socket);
  });
}
