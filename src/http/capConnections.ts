import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { countEvent } from "../lib/countEvent.js";
import { JSON_HEADERS } from "./jsonHeaders.js";

/** Options of capConnections. */
export interface ConnectionCapOptions {
  /** Open client connections served at most. */
  maxConnections: number;
  /**
   * Open connections of one source address at most (default: no bound but `maxConnections`).
   * Counted by the socket's address: the only one known when a connection opens.
   */
  maxPerAddress?: number;
  /** Retry-After of the refusal, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** How long a refused connection may stay open to read its 503 (ms, default 1,000). */
  lingerMs?: number;
  /** Refused connections kept open at once; past it, more are closed without an answer (default 1,024). */
  maxLingering?: number;
}

/** What the cap knows of one served connection. */
interface Served {
  address: string;
  /**
   * The request it received last and its response (none: its first request's headers are still
   * coming); once its answer has gone out (see answering) the connection is idle. Two fields
   * written per request, no object made.
   */
  req: IncomingMessage | undefined;
  res: ServerResponse | undefined;
  /** Gone from the count already (evicted): its 'close' must not count it out twice. */
  released: boolean;
}

// The request a connection is receiving or answering now, if any. Read when a slot is wanted,
// not kept up to date on every answer (no listener per request on the request path).
function answering(state: Served): { req: IncomingMessage; res: ServerResponse } | undefined {
  const { req, res } = state;
  return req === undefined || res === undefined || res.writableFinished || res.destroyed
    ? undefined
    : { req, res };
}

// A request whose body has not arrived whole yet: an upload the server only waits on.
function isUploading(req: IncomingMessage): boolean {
  const announced =
    req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"]) > 0;
  return announced && !req.complete;
}

/**
 * Caps the connections `server` serves, in all and per source address. node's own
 * `maxConnections` closes a connection past the cap without a byte, which a client cannot tell
 * from a crash; here it gets a short JSON 503 with Retry-After and Connection: close, written as
 * soon as it connects, and is closed once the client has it (or after `lingerMs`). What it sends
 * meanwhile is read and dropped, so the close is clean. Refusals cost one small write each; a
 * flood past `maxLingering` refused sockets still open is closed at once, so the refusals
 * themselves cannot hold file descriptors.
 *
 * One address cannot crowd out the rest: past `maxPerAddress` its new connections are refused,
 * and when the server is full, a newcomer from an address holding fewer connections takes the
 * slot of one that holds more: first a connection of that address still sending its request body
 * (it gets the JSON 503 and is closed; a slow upload is the cheapest thing to give up), else an
 * idle one (closed, as a keep-alive timeout would). Connections busy answering are never taken.
 */
export function capConnections(server: Server, options: ConnectionCapOptions): void {
  const retryAfter = options.retryAfterSeconds ?? 1;
  const lingerMs = options.lingerMs ?? 1_000;
  const maxLingering = options.maxLingering ?? 1_024;
  const maxPerAddress = options.maxPerAddress ?? options.maxConnections;
  const { body, refusalHeaders, refusal } = refusalOf(retryAfter);
  // node's HTTP handling is the server's 'connection' listener: it runs only under the cap.
  const serve = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  let open = 0;
  let lingering = 0;
  const served = new Map<Socket, Served>();
  const byAddress = new Map<string, Set<Socket>>();

  // A closed socket is let go after `lingerMs` at the latest, whether the client read or not.
  function linger(socket: Socket): void {
    lingering++;
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => {
      lingering--;
      clearTimeout(timer);
    });
  }

  function refuse(socket: Socket, reason: string): void {
    countEvent("http_refusals", { reason });
    socket.on("error", () => undefined);
    if (lingering >= maxLingering) {
      socket.destroy();
      return;
    }
    linger(socket);
    // The server is half-open by default: a client that has read the answer and ended is let go.
    socket.once("end", () => socket.destroy());
    socket.resume();
    socket.end(refusal);
  }

  function release(socket: Socket): void {
    const state = served.get(socket);
    if (state === undefined || state.released) return;
    state.released = true;
    served.delete(socket);
    open--;
    const sockets = byAddress.get(state.address);
    sockets?.delete(socket);
    if (sockets?.size === 0) byAddress.delete(state.address);
  }

  function evict(victim: { socket: Socket; state: Served }): void {
    const { socket, state } = victim;
    release(socket);
    countEvent("http_refusals", { reason: "connection_yielded" });
    const res = answering(state)?.res;
    if (res === undefined || res.headersSent) {
      socket.destroy();
      return;
    }
    // The answer to the upload, once: Connection: close makes node end the socket after it, and
    // whatever the handler tries later finds the response sent.
    linger(socket);
    res.writeHead(503, refusalHeaders);
    res.end(body);
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const state = served.get(req.socket as Socket);
    if (state !== undefined) {
      state.req = req;
      state.res = res;
    }
  });

  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const own = byAddress.get(address)?.size ?? 0;
    if (open >= options.maxConnections) {
      const victim = own < maxPerAddress ? victimFor(address, byAddress, served) : undefined;
      if (victim === undefined) {
        refuse(socket, "connection_cap");
        return;
      }
      evict(victim);
    } else if (own >= maxPerAddress) {
      refuse(socket, "connection_share");
      return;
    }
    open++;
    served.set(socket, { address, req: undefined, res: undefined, released: false });
    let sockets = byAddress.get(address);
    if (sockets === undefined) {
      sockets = new Set();
      byAddress.set(address, sockets);
    }
    sockets.add(socket);
    socket.once("close", () => release(socket));
    for (const listener of serve) listener.call(server, socket);
  });
}

// The 503 a refused connection gets: its body, its headers, and the whole raw HTTP answer.
function refusalOf(retryAfter: number): {
  body: string;
  refusalHeaders: Record<string, string>;
  refusal: string;
} {
  const message = `The server is at its connection limit; retry in ${retryAfter} s.`;
  const body = JSON.stringify({ error: message });
  const refusalHeaders = {
    "Content-Type": JSON_HEADERS["Content-Type"],
    "Content-Length": String(Buffer.byteLength(body)),
    "Retry-After": String(retryAfter),
    "Cache-Control": "no-store",
    Connection: "close",
  };
  const refusal = `HTTP/1.1 503 Service Unavailable\r\n${Object.entries(refusalHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n${body}`;
  return { body, refusalHeaders, refusal };
}

// The connection to give up for a newcomer from `address`: of the address holding the most
// connections (more than the newcomer's own), an upload first, else an idle connection.
function victimFor(
  address: string,
  byAddress: Map<string, Set<Socket>>,
  served: Map<Socket, Served>,
): { socket: Socket; state: Served } | undefined {
  const own = byAddress.get(address)?.size ?? 0;
  let idle: { socket: Socket; state: Served } | undefined;
  const heaviest = [...byAddress].filter(([, sockets]) => sockets.size > own + 1);
  heaviest.sort((a, b) => b[1].size - a[1].size);
  for (const [, sockets] of heaviest) {
    for (const socket of sockets) {
      const state = served.get(socket);
      if (state === undefined) continue;
      const current = answering(state);
      if (current === undefined) idle ??= { socket, state };
      else if (!current.res.headersSent && isUploading(current.req)) return { socket, state };
    }
    if (idle !== undefined) return idle;
  }
  return undefined;
}
