import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { SwapgraphError } from "../errors.js";
import { GRAPHQL_LIMITS } from "../graphql/graphqlLimits.js";
import { GRAPHQL_PATH } from "./graphqlPath.js";
import { JSON_HEADERS } from "./jsonHeaders.js";
import { shorten } from "./shorten.js";
import { toRestError } from "./toRestError.js";

/**
 * The one error handler of the HTTP edge (and its 404): every error becomes JSON with its status
 * and public message (toRestError), never kept by a cache; /graphql words it as GraphQL over HTTP.
 */
export function setErrorHandling(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error, request, reply) => {
    const path = request.routeOptions.url ?? request.url;
    const { status, code, body, headers } = toRestError(error, logger, {
      path,
      bodyLimit: GRAPHQL_LIMITS.maxRequestBodySize,
    });
    reply.code(status).headers({ ...JSON_HEADERS, ...headers, "Cache-Control": "no-store" });
    // /graphql speaks GraphQL over HTTP even in the errors the framework raises before yoga.
    return request.routeOptions.url === GRAPHQL_PATH
      ? { errors: [{ message: body.error, extensions: { code } }] }
      : body;
  });
  app.setNotFoundHandler(async (request) => {
    throw new SwapgraphError("NOT_FOUND", `Unknown path ${shorten(request.url.split("?")[0] ?? "", 100)}.`);
  });
}
