import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * What /openapi.json says of a GET route beyond its path and the JSON Schemas it is registered
 * with (params, querystring): given as the route's `config.openapi`, read back by docsPlugin.
 */
export interface RouteDoc {
  operationId: string;
  tag: "Market data" | "Listings" | "DEX Screener adapter";
  summary: string;
  description: string;
  /** The 200: what it holds, its body's JSON Schema (a line's, for NDJSON) and an example. */
  ok: { description: string; schema: object; example?: unknown; media?: "application/x-ndjson" };
  /** Kept per indexed block: ETag and Cache-Control on the 200, a 304 for a matching If-None-Match. */
  kept?: boolean;
  /** Headers of the 200 beyond X-Indexed-Block and X-Data-Age (and the kept answer's). */
  headers?: string[];
  /** Error answers beyond the 400, 405, 429, 503 and 500 of every route, by status. */
  errors?: Record<string, { description: string; example: string }>;
}

/** A GET route with its description: path, JSON Schemas of its parameters, handler. */
export interface DocumentedRoute {
  /** With `:name` path parameters, as Fastify writes them. */
  path: string;
  params?: object;
  querystring?: object;
  doc: RouteDoc;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's description in /openapi.json (absent: not described there). */
    openapi?: RouteDoc | undefined;
  }
}
