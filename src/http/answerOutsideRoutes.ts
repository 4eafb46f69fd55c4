import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { JSON_HEADERS } from "./jsonHeaders.js";
import { ALLOWED_METHODS } from "./routeConfig.js";
import { shorten } from "./shorten.js";

/**
 * Answers in JSON what node handles before any route: a CONNECT (a 405: this is no proxy) and an
 * Expect it cannot meet (417). Node would otherwise close the socket without a word, or answer
 * with an empty body.
 */
export function answerOutsideRoutes(server: Server): void {
  // CONNECT asks for a tunnel; node leaves the socket to this event.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => undefined);
    const body = JSON.stringify({ error: "Method CONNECT is not allowed: this server is not a proxy." });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\n` +
        `Content-Type: ${JSON_HEADERS["Content-Type"]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    req.destroy();
  });
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      error: `Expect: ${shorten(String(req.headers.expect), 20)} is not supported.`,
    });
    res.writeHead(417, { ...JSON_HEADERS, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
}
