import type { FastifyReply, FastifyRequest } from "fastify";

/** One REST route: its path, its operation in schema/openapi.yaml, and its handler. */
export interface RestRoute {
  path: string;
  operationId: string;
  /** Its answers carry their own gzip copy (kept answers): the framework's compressor stays out. */
  ownCompression: boolean;
  /** A whole list: its answers are charged to the client's list budget (createListBudget). */
  list?: boolean;
  /** zlib level of the framework's gzip for this route's answers (default zlib's, 6). */
  gzipLevel?: number;
  /**
   * Answers through `reply`; throwing before the first byte makes the server send the JSON error.
   * Undefined: answered synchronously (a kept answer, sent already).
   */
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | undefined;
}

/** Response headers a browser script may read (CORS hides non-standard headers otherwise). */
export const EXPOSED_HEADERS = "X-Indexed-Block, X-Data-Age, X-Next-Cursor, Link";
