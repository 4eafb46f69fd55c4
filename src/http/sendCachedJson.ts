import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { acceptsGzip, GZIP_MIN_BYTES, JSON_HEADERS } from "./jsonHeaders.js";
import { matchesIfNoneMatch } from "./matchesIfNoneMatch.js";

/** A JSON answer kept serialized: its bytes, their gzip (made once, on first demand) and a validator for each. */
export interface CachedJson {
  body: Buffer;
  /** True when the body is large enough for gzip to be worth it. */
  compressible: boolean;
  /** The gzip of `body`, made by the first request that takes gzip (never on the rendering path). */
  gzipped?: Buffer;
  /** Strong ETag of `body`, quoted. */
  etag: string;
  /** Strong ETag of the gzip: another representation, so another tag. */
  gzipEtag: string;
}

/**
 * Keeps an answer (a value, or JSON bytes already written) with ETags made of `scope` (network
 * and indexed block) and a hash of the bytes, so equal tags always mean equal bytes, even when a
 * reorg brings the same block number back with other contents.
 */
export function buildCachedJson(value: unknown, scope: string): CachedJson {
  const body = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value));
  const hash = createHash("sha1").update(body).digest("base64url").slice(0, 16);
  return {
    body,
    compressible: body.length >= GZIP_MIN_BYTES,
    etag: `"${scope}-${hash}"`,
    gzipEtag: `"${scope}-${hash}-gzip"`,
  };
}

/** Options of sendCachedJson. */
export interface SendCachedJsonOptions {
  /** Cache-Control of the answer (and of its 304). */
  cacheControl: string;
  /** Per-request headers (freshness): sent on the 200 and on the 304 alike. */
  headers: Record<string, string>;
}

/**
 * Answers 200 with the kept bytes (gzipped when the client takes it and they are large), or
 * 304 without a body when If-None-Match names the representation's ETag. HEAD gets the same
 * status and headers (the framework drops the body).
 */
export function sendCachedJson(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedJson,
  options: SendCachedJsonOptions,
): FastifyReply {
  const gzip = answer.compressible && acceptsGzip(request.headers["accept-encoding"]);
  if (gzip) answer.gzipped ??= gzipSync(answer.body, { level: 6 });
  const zipped = gzip ? answer.gzipped : undefined;
  const etag = zipped === undefined ? answer.etag : answer.gzipEtag;
  // One header at a time, in the order they go out (no objects made per request), named in
  // lowercase as Fastify keeps them (it lowercases every name it is given).
  for (const name in options.headers) reply.header(name, options.headers[name]);
  reply.header("etag", etag);
  reply.header("cache-control", options.cacheControl);
  // A shared cache must not hand a gzip body to a client that did not ask for one.
  if (answer.compressible) reply.header("vary", "Accept-Encoding");
  if (matchesIfNoneMatch(request.headers["if-none-match"], etag)) return reply.code(304).send();
  reply.header("content-type", JSON_HEADERS["Content-Type"]);
  reply.header("x-content-type-options", JSON_HEADERS["X-Content-Type-Options"]);
  // The compressor leaves an answer with a Content-Encoding alone; the rest are below its threshold
  // or go to a client that takes no gzip.
  if (zipped !== undefined) reply.header("content-encoding", "gzip");
  return reply.send(zipped ?? answer.body);
}
