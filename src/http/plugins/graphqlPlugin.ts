import { createHash } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { pipeline, Readable } from "node:stream";
import { createGzip, gzipSync } from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GraphqlServer } from "../../graphql/createGraphqlServer.js";
import type { LazyGraphqlServer } from "../../graphql/createLazyGraphqlServer.js";
import type { AnswerVerdict } from "../../graphql/plugins/useKeepableAnswers.js";
import { boundEventCount, countEvent } from "../../lib/countEvent.js";
import type { AnswerStore } from "../../views/answers/createAnswerStore.js";
import { checkGraphqlRequest } from "../checkGraphqlRequest.js";
import { GRAPHQL_PATH } from "../graphqlPath.js";
import { acceptsGzip, GZIP_MIN_BYTES, JSON_HEADERS } from "../jsonHeaders.js";
import { matchesIfNoneMatch } from "../matchesIfNoneMatch.js";
import { OTHER_METHODS, refuseOtherMethods, unlimited } from "../routeConfig.js";

const GRAPHQL_ANSWER = { cache: "graphql_answer" };
const GRAPHQL_ALLOWED = "GET, POST, OPTIONS";
// The JSON bodies a GraphQL POST may carry (the server's parsers: createHttpServer).
const JSON_BODY_TYPES = ["application/json", "application/graphql-response+json"];

/**
 * A kept answer of /graphql: its bytes, the headers it went out with (yoga's and Last-Modified),
 * and, when it is large enough, its gzip (made by the first request that takes gzip), each
 * representation with its own ETag.
 */
interface GraphqlAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string;
  compressible: boolean;
  gzipped?: Buffer;
  gzipEtag: string;
}

/**
 * GraphQL over HTTP at /graphql through yoga (GraphiQL on GET from a browser). Answers yoga
 * judges keepable (useKeepableAnswers: market queries without errors) are kept in the answer
 * store for the market state they were made in, keyed by the request as it came (method, Accept,
 * the body's text or the query string), and a repeated request is answered from those bytes
 * without going through yoga, nor parsing its body: the body is parsed (Fastify's JSON parser,
 * its refusals unchanged) only when yoga is to answer it. If-None-Match with the ETag gets a
 * 304; a kept answer carries its own gzip, so the compressor never compresses it again.
 * A lazy server (createLazyGraphqlServer) is built by the first request yoga is to answer.
 */
export async function graphqlPlugin(
  app: FastifyInstance,
  options: { graphql: GraphqlServer | LazyGraphqlServer; answers?: AnswerStore },
): Promise<void> {
  const { answers } = options;
  // Not `in`: yoga's server is a Proxy that may claim any property.
  const lazy =
    typeof (options.graphql as LazyGraphqlServer).load === "function" ? options.graphql : undefined;
  let yoga = lazy === undefined ? (options.graphql as GraphqlServer) : undefined;
  // Read once: yoga's server is a Proxy whose every property read binds a new function.
  const marketState = answers === undefined ? undefined : options.graphql.marketState;
  const countHit = boundEventCount("cache_hits", GRAPHQL_ANSWER);
  // This plugin's own parsers (encapsulated): the body's text is kept as it came, and parsed
  // by the server's JSON parser (same limits, same refusals) when yoga needs it.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(JSON_BODY_TYPES);
  app.addContentTypeParser(JSON_BODY_TYPES, { parseAs: "string" }, (_request, body, done) =>
    done(null, body),
  );

  // Yoga answers: the body parsed, checked, run; a keepable answer is kept and sent as kept ones are.
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    state: string | undefined,
  ) {
    if (typeof request.body === "string") request.body = parse(request, request.body);
    // Every shape of body is answered: one yoga cannot use (null, a primitive, an array, an
    // empty object) would otherwise leave its adapter waiting on a stream Fastify has read.
    checkGraphqlRequest({ method: request.method, body: request.body, query: request.query });
    // The client key is the rate limit's (request.ip, which honours trustProxy): GraphQL's
    // per-client budget charges the same client.
    const verdict: AnswerVerdict = { keepable: false };
    yoga ??= await (lazy as LazyGraphqlServer).load();
    const response = await yoga.handleNodeRequestAndResponse(request, reply, {
      req: request.raw,
      res: reply.raw,
      clientKey: request.ip,
      ...(state === undefined ? {} : { verdict }),
    });
    const headers = [...response.headers].filter(([name]) => name !== "content-length");
    // Every error answer says why in JSON (yoga leaves a few empty).
    if (response.body === null && response.status >= 400) {
      for (const [name, value] of headers) reply.header(name, value);
      reply.code(response.status);
      reply.header("Content-Type", JSON_HEADERS["Content-Type"]);
      return reply.send({ errors: [{ message: STATUS_CODES[response.status] ?? "Request refused." }] });
    }
    if (verdict.keepable && state !== undefined && response.status === 200 && response.body !== null) {
      const kept = keep(response.status, headers, Buffer.from(await response.arrayBuffer()));
      // A miss is an answer that could have been kept: one that now is.
      countEvent("cache_misses", GRAPHQL_ANSWER);
      answers?.set(key, state, kept);
      return send(request, reply, kept);
    }
    for (const [name, value] of headers) reply.header(name, value);
    reply.code(response.status);
    return reply.send(response.body === null ? null : gzipWhenWorth(request, reply, response.body));
  }

  function parse(request: FastifyRequest, text: string): unknown {
    let failure: Error | null = null;
    let parsed: unknown;
    parseJson(request, text, (error, value) => {
      failure = error;
      parsed = value;
    });
    if (failure !== null) throw failure;
    return parsed;
  }

  app.route({
    method: ["GET", "POST"],
    url: GRAPHQL_PATH,
    // Not the framework's compressor: kept answers carry their gzip, yoga's others are gzipped
    // here (gzipWhenWorth), and no answer pays for the compressor's hooks.
    compress: false,
    handler: (request, reply) => {
      const state = marketState?.();
      const asked = request.method === "POST" ? request.body : request.url;
      const key = `graphql\n${request.method}\n${request.headers.accept ?? ""}\n${
        typeof asked === "string" ? asked : JSON.stringify(asked)
      }`;
      // A kept answer: the same request was answered (checked, parsed, run) in this state.
      const kept = state === undefined ? undefined : answers?.get<GraphqlAnswer>(key, state, Date.now());
      if (kept !== undefined) {
        countHit();
        send(request, reply, kept);
        return undefined;
      }
      return answer(request, reply, key, state);
    },
  });
  // Its preflight names its own methods (the request hook answers it from the route's config).
  app.options(GRAPHQL_PATH, unlimited({ cors: { methods: GRAPHQL_ALLOWED } }), async () => undefined);
  refuseOtherMethods(app, GRAPHQL_PATH, {
    allow: GRAPHQL_ALLOWED,
    methods: OTHER_METHODS.filter((method) => method !== "POST"),
  });
}

// What is worth gzipping (as @fastify/compress judges it): JSON and text, never an event stream.
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)/u;

/**
 * Yoga's answer (not kept) gzipped as it streams, when it is JSON or text and the client takes
 * gzip: what the framework's compressor did for this route (at zlib's default level), without
 * its two hooks on every request. Subscriptions (text/event-stream) go as they happen.
 */
function gzipWhenWorth(
  request: FastifyRequest,
  reply: FastifyReply,
  body: ReadableStream<Uint8Array>,
): ReadableStream<Uint8Array> | Readable {
  const type = reply.getHeader("content-type");
  if (
    typeof type !== "string" ||
    !COMPRESSIBLE.test(type) ||
    request.headers["x-no-compression"] !== undefined ||
    !acceptsGzip(request.headers["accept-encoding"])
  ) {
    return body;
  }
  // Yoga's body is a web stream, Node's or its own (@whatwg-node's, which Readable.fromWeb
  // refuses): async iterable either way.
  const chunks = body as unknown as AsyncIterable<Uint8Array>;
  const gzip = createGzip();
  // A client gone mid-answer ends both streams (the framework destroys the response): nothing to report.
  pipeline(Readable.from(chunks, { objectMode: false }), gzip, () => undefined);
  const vary = reply.getHeader("vary");
  if (typeof vary !== "string") reply.header("vary", "accept-encoding");
  else if (!vary.toLowerCase().includes("accept-encoding")) reply.header("vary", `${vary}, accept-encoding`);
  reply.header("content-encoding", "gzip");
  return gzip;
}

// The bytes of a keepable answer with its validators: a hash of each representation.
function keep(status: number, yogaHeaders: [string, string][], body: Buffer): GraphqlAnswer {
  const hash = createHash("sha1").update(body).digest("base64url").slice(0, 16);
  return {
    status,
    headers: [...yogaHeaders, ["last-modified", new Date().toUTCString()]],
    body,
    etag: `"${hash}"`,
    compressible: body.length >= GZIP_MIN_BYTES,
    gzipEtag: `"${hash}-gzip"`,
  };
}

// A kept answer (or one just kept): gzipped when the client takes it and it is large, 304 when
// If-None-Match names the representation's ETag.
function send(request: FastifyRequest, reply: FastifyReply, kept: GraphqlAnswer): FastifyReply {
  const gzip = kept.compressible && acceptsGzip(request.headers["accept-encoding"]);
  if (gzip) kept.gzipped ??= gzipSync(kept.body, { level: 6 });
  const etag = gzip ? kept.gzipEtag : kept.etag;
  for (const [name, value] of kept.headers) reply.header(name, value);
  reply.header("etag", etag);
  // A shared cache must not hand a gzip body to a client that did not ask for one.
  if (kept.compressible) reply.header("vary", "Accept-Encoding");
  if (matchesIfNoneMatch(request.headers["if-none-match"], etag)) return reply.code(304).send();
  if (gzip) reply.header("content-encoding", "gzip");
  return reply.code(kept.status).send(gzip ? kept.gzipped : kept.body);
}
