import { METHODS } from "node:http";
import type { FastifyInstance } from "fastify";

/** Methods every non-GraphQL route answers. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

// Every method node parses that a read-only path does not take (CONNECT aside, which node hands
// to the 'connect' event): they get a 405 with Allow. Fastify itself would answer 404, as if the
// path did not exist; the methods it does not route by default (WebDAV's and others) are taught
// to it by createHttpServer.
const ROUTED_ELSEWHERE = new Set(["GET", "HEAD", "OPTIONS", "CONNECT"]);

/** The methods a read-only path refuses with a 405. */
export const OTHER_METHODS = METHODS.filter((method) => !ROUTED_ELSEWHERE.has(method));

/** Route options of what the client rate limit leaves alone (probes, docs, refusals). */
export function unlimited(config: Record<string, unknown> = {}) {
  return { config: { ...config, rateLimit: false as const } };
}

// The request hook answers these (405 with Allow, createRequestHook) before any body is read.
const notAllowed = async () => undefined;

/** Routes every other method of `url` to the 405 with `allow`, refused before the body is read. */
export function refuseOtherMethods(
  app: FastifyInstance,
  url: string,
  options: { allow?: string; methods?: readonly string[] } = {},
): void {
  app.route({
    method: [...(options.methods ?? OTHER_METHODS)],
    url,
    ...unlimited({ allow: options.allow ?? ALLOWED_METHODS }),
    handler: notAllowed,
  });
}
