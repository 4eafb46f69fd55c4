import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { acceptsGzip } from "./jsonHeaders.js";

const gzip = promisify(gzipCallback);

/** A file or page kept in memory with the headers it is served with. */
export interface Asset {
  type: string;
  body: Buffer;
  /** Compressed once, on the first client that accepts gzip. */
  gzipped?: Promise<Buffer>;
  headers: Record<string, string>;
}

/** An asset of `body` (bytes or text). */
export function asset(type: string, body: Buffer | string, headers: Record<string, string>): Asset {
  return { type, body: Buffer.isBuffer(body) ? body : Buffer.from(body), headers };
}

/**
 * Sends an asset, gzipped when the client accepts it. Assets are compressed once and kept (the
 * compressor would redo a 1 MB script per request).
 */
export async function sendAsset(
  request: FastifyRequest,
  reply: FastifyReply,
  item: Asset,
  status = 200,
): Promise<FastifyReply> {
  // Below 1 KB compressing costs more than it saves (as for JSON answers).
  const compress = acceptsGzip(request.headers["accept-encoding"]) && item.body.length >= 1024;
  let bytes = item.body;
  if (compress) {
    item.gzipped ??= gzip(item.body, { level: 9 });
    bytes = await item.gzipped;
    reply.header("Content-Encoding", "gzip");
  }
  return reply
    .code(status)
    .headers({
      "Content-Type": item.type,
      "X-Content-Type-Options": "nosniff",
      ...item.headers,
      Vary: "Accept-Encoding",
    })
    .send(bytes);
}

/** An asset read from disk on its first request; a failed read is retried by the next request. */
export function lazyFile(path: string, type: string, headers: Record<string, string>): () => Promise<Asset> {
  let loaded: Promise<Asset> | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = readFile(path).then((body) => asset(type, body, headers));
      loaded.catch(() => {
        loaded = undefined;
      });
    }
    return loaded;
  };
}
