import type { ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream";
import { createGzip } from "node:zlib";

/** An answer whose body is written piece by piece (chunked transfer encoding, no Content-Length). */
export interface ChunkedAnswer {
  /** Writes the next piece; resolves when more may be written (waits for 'drain': backpressure). */
  write(text: string): Promise<void>;
  /** Ends the body; resolves once every byte was handed to the socket. */
  end(): Promise<void>;
}

/** The client closed the connection, or stopped reading, before the answer was complete. */
export class ClientGoneError extends Error {
  override name = "ClientGoneError";
  constructor(message = "The client closed the connection before the answer was complete.") {
    super(message);
  }
}

/** How long a stream waits for a client that reads nothing before it gives up (default). */
export const STALL_TIMEOUT_MS = 60_000;

// Resolves on 'drain', rejects when either stream closes or fails first (a client that went
// away never drains, so waiting for 'drain' alone would hang the request forever), or when
// the client has read nothing for `stallMs` (it would hold a socket and a page forever).
function drained(sink: Writable, res: ServerResponse, stallMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      sink.off("drain", onDrain);
      sink.off("close", onClose);
      sink.off("error", onClose);
      res.off("close", onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => settle();
    const onClose = () => settle(new ClientGoneError());
    const timer = setTimeout(
      () => settle(new ClientGoneError(`The client read nothing for ${stallMs} ms.`)),
      stallMs,
    );
    sink.once("drain", onDrain);
    sink.once("close", onClose);
    sink.once("error", onClose);
    res.once("close", onClose);
  });
}

function isPrematureClose(error: NodeJS.ErrnoException): boolean {
  return error.code === "ERR_STREAM_PREMATURE_CLOSE";
}

/**
 * Sends status and headers and returns the body writer. With `gzip`, the text goes through a
 * streamed gzip (zlib.createGzip piped into the response): the bytes after decompression are
 * exactly the bytes written. Memory stays at one piece plus the streams' buffers.
 */
export function openChunkedAnswer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  options: { gzip: boolean; stallTimeoutMs?: number },
): ChunkedAnswer {
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  res.writeHead(status, options.gzip ? { ...headers, "Content-Encoding": "gzip" } : headers);
  let sink: Writable = res;
  let finished: Promise<void>;
  if (options.gzip) {
    const gzip = createGzip({ level: 6 });
    sink = gzip;
    // pipeline destroys both sides when either fails (a client that went away ends the gzip too).
    finished = new Promise((resolve, reject) =>
      pipeline(gzip, res, (error) => {
        if (error === null || error === undefined) resolve();
        else reject(isPrematureClose(error) ? new ClientGoneError() : error);
      }),
    );
  } else {
    finished = new Promise((resolve, reject) => {
      res.once("finish", () => resolve());
      res.once("close", () => (res.writableFinished ? resolve() : reject(new ClientGoneError())));
    });
  }
  // Nobody may await `finished` when a write fails first: keep its rejection from going unhandled.
  finished.catch(() => {});

  return {
    async write(text) {
      if (sink.destroyed || res.destroyed) throw new ClientGoneError();
      if (!sink.write(text)) await drained(sink, res, stallMs);
    },
    async end() {
      if (sink.destroyed || res.destroyed) throw new ClientGoneError();
      sink.end();
      await finished;
    },
  };
}
