import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { EXPOSED_HEADERS } from "./api/restRoute.js";
import { ALLOWED_METHODS } from "./routeConfig.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** CORS of the route: the methods its preflight allows (default ALLOWED_METHODS). */
    cors?: { methods: string };
  }
}

// The preflight is cached for a day: its answer never changes.
const PREFLIGHT_MAX_AGE = String(86_400);

/**
 * The one CORS policy, for every path: public read-only data, any origin, no credentials; the
 * headers a script may read (X-Indexed-Block and the like) are exposed. Set by the request hook
 * (createRequestHook), before anything can refuse the request, so refusals carry it too. Two
 * constant headers: this is what @fastify/cors did with `origin: "*"`, without its work per request.
 */
export function setCorsHeaders(reply: FastifyReply): void {
  reply.header("access-control-allow-origin", "*");
  reply.header("access-control-expose-headers", EXPOSED_HEADERS);
}

/**
 * Answers a preflight (any OPTIONS request) at once with 204: the methods the path takes (the
 * route's `cors.methods`, else GET, HEAD, OPTIONS), the request headers the browser asked for
 * (any are allowed), and a day's Max-Age. Before the rate limit: a browser's preflight is not
 * charged to its client.
 */
export function answerPreflight(
  request: FastifyRequest,
  reply: FastifyReply,
  methods: string | undefined,
): void {
  reply.header("access-control-allow-methods", methods ?? ALLOWED_METHODS);
  // The answer echoes the request's header list: caches must key on it.
  reply.header("vary", "Access-Control-Request-Headers");
  const asked = request.headers["access-control-request-headers"];
  if (asked !== undefined) reply.header("access-control-allow-headers", asked);
  reply.header("access-control-max-age", PREFLIGHT_MAX_AGE);
  reply.code(204).header("content-length", "0").send();
}

/** Routes OPTIONS on every path, so that the request hook answers its preflight (not a 404). */
export function routePreflights(app: FastifyInstance): void {
  app.options("*", async (_request, reply) => reply.callNotFound());
}
