import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { FastifyInstance } from "fastify";
import type { GraphqlServer } from "../../graphql/createGraphqlServer.js";
import type { AnswerVerdict } from "../../graphql/plugins/useKeepableAnswers.js";
import { countEvent } from "../../lib/countEvent.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import { checkGraphqlRequest } from "../checkGraphqlRequest.js";
import { GRAPHQL_PATH } from "../graphqlPath.js";
import { JSON_HEADERS } from "../jsonHeaders.js";
import { matchesIfNoneMatch } from "../matchesIfNoneMatch.js";
import { OTHER_METHODS, refuseOtherMethods, unlimited } from "../routeConfig.js";

const GRAPHQL_ANSWER = { cache: "graphql_answer" };
const GRAPHQL_ALLOWED = "GET, POST, OPTIONS";

/** A kept answer of /graphql: its bytes and the headers it went out with (its validator among them). */
interface GraphqlAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string;
}

/**
 * GraphQL over HTTP at /graphql through yoga (GraphiQL on GET from a browser). Fastify has
 * parsed the JSON body (its limit is yoga's), so yoga reads `request.body` instead of the stream.
 * Answers yoga judges keepable (useKeepableAnswers: market queries without errors) are kept in
 * the answer store for the market state they were made in, and a repeated request (same method,
 * query or body, Accept) is answered from those bytes without going through yoga; If-None-Match
 * with their ETag gets a 304.
 */
export async function graphqlPlugin(
  app: FastifyInstance,
  options: { graphql: GraphqlServer; answers?: AnswerStore },
): Promise<void> {
  const { graphql, answers } = options;
  // Read once: yoga's server is a Proxy whose every property read binds a new function.
  const marketState = answers === undefined ? undefined : graphql.marketState;
  app.route({
    method: ["GET", "POST"],
    url: GRAPHQL_PATH,
    handler: async (request, reply) => {
      // Every shape of body is answered: one yoga cannot use (null, a primitive, an array, an
      // empty object) would otherwise leave its adapter waiting on a stream Fastify has read.
      checkGraphqlRequest({ method: request.method, body: request.body, query: request.query });
      const state = marketState?.();
      const key = `graphql\n${request.method}\n${request.headers.accept ?? ""}\n${
        request.method === "POST" ? JSON.stringify(request.body) : request.url
      }`;
      const kept = state === undefined ? undefined : answers?.get<GraphqlAnswer>(key, state, Date.now());
      if (kept !== undefined) {
        countEvent("cache_hits", GRAPHQL_ANSWER);
        for (const [name, value] of kept.headers) reply.header(name, value);
        if (matchesIfNoneMatch(request.headers["if-none-match"], kept.etag)) return reply.code(304).send();
        return reply.code(kept.status).send(kept.body);
      }
      // The client key is the rate limit's (request.ip, which honours trustProxy): GraphQL's
      // per-client budget charges the same client.
      const verdict: AnswerVerdict = { keepable: false };
      const response = await graphql.handleNodeRequestAndResponse(request, reply, {
        req: request.raw,
        res: reply.raw,
        clientKey: request.ip,
        ...(state === undefined ? {} : { verdict }),
      });
      const headers = [...response.headers].filter(([name]) => name !== "content-length");
      for (const [name, value] of headers) reply.header(name, value);
      reply.code(response.status);
      // Every error answer says why in JSON (yoga leaves a few empty).
      if (response.body === null && response.status >= 400) {
        reply.header("Content-Type", JSON_HEADERS["Content-Type"]);
        return reply.send({ errors: [{ message: STATUS_CODES[response.status] ?? "Request refused." }] });
      }
      if (verdict.keepable && state !== undefined && response.status === 200 && response.body !== null) {
        const body = Buffer.from(await response.arrayBuffer());
        const etag = `"${createHash("sha1").update(body).digest("base64url").slice(0, 16)}"`;
        const validators: [string, string][] = [
          ["etag", etag],
          ["last-modified", new Date().toUTCString()],
        ];
        for (const [name, value] of validators) reply.header(name, value);
        // A miss is an answer that could have been kept: one that now is.
        countEvent("cache_misses", GRAPHQL_ANSWER);
        const answer: GraphqlAnswer = {
          status: response.status,
          headers: [...headers, ...validators],
          body,
          etag,
        };
        answers?.set(key, state, answer);
        return reply.send(body);
      }
      return reply.send(response.body);
    },
  });
  // Its preflight names its own methods (the CORS plugin answers it from the route's config).
  app.options(GRAPHQL_PATH, unlimited({ cors: { methods: GRAPHQL_ALLOWED } }), async () => undefined);
  refuseOtherMethods(app, GRAPHQL_PATH, {
    allow: GRAPHQL_ALLOWED,
    methods: OTHER_METHODS.filter((method) => method !== "POST"),
  });
}
