import {
  type IncomingMessage,
  METHODS,
  type Server,
  type ServerOptions,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import type { Duplex } from "node:stream";
import fastifyCompress from "@fastify/compress";
import fastifyCors from "@fastify/cors";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import type { GraphQLSchema } from "graphql";
import { type Logger, pino } from "pino";
import { countEvent } from "../domain/countEvent.js";
import type { MarketReader } from "../domain/market.js";
import { AnswerDeadlineError, MethodNotAllowedError, RateLimitedError, SwapgraphError } from "../errors.js";
import { buildSchema } from "../graphql/buildSchema.js";
import { createGraphqlExecutor } from "../graphql/createGraphqlExecutor.js";
import { GRAPHQL_LIMITS, type GraphqlServer } from "../graphql/createGraphqlServer.js";
import { capConnections } from "./capConnections.js";
import { checkGraphqlRequest } from "./checkGraphqlRequest.js";
import { createDocsRoutes } from "./createDocsRoutes.js";
import { createMetrics, type Metrics } from "./createMetrics.js";
import { createRestHandlers, EXPOSED_HEADERS, type RestRoute } from "./createRestHandlers.js";
import { createSwapHourCache } from "./createSwapHourCache.js";
import { JSON_HEADERS } from "./jsonHeaders.js";
import { formatQueryErrors, parseQueryString } from "./readQueryParams.js";
import { ALLOWED_METHODS, toRestError } from "./toRestError.js";

/** Options of createHttpServer. */
export interface HttpServerOptions {
  reader: MarketReader;
  /** The GraphQL server that answers /graphql. */
  graphql: GraphqlServer;
  /** The schema `graphql` serves (default: buildSchema()); the REST facade executes against it. */
  schema?: GraphQLSchema;
  /**
   * Readiness for /ready (default: every configured network finished its backfill once and is
   * not halted; a degraded network, whose RPC is down, still counts as ready).
   */
  ready?: () => boolean;
  /** Default: pino at info level. */
  logger?: Logger;
  /** Swaps per GraphQL page while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer shared within its block and second (bytes; 0: never). */
  sharedListMaxChars?: number;
  /**
   * A directory where the rendered bytes of settled hours of /api/swaps_24h are kept (in a
   * directory of their own, removed when the server closes): each settled hour is then rendered
   * once, and a whole-window list reads and renders only its moving ends. Default: not kept.
   */
  swapsCacheDir?: string;
  /** Prometheus metrics served on /metrics (default: a new registry). */
  metrics?: Metrics;
  /** Longest accepted request target (path and query string), default 2048 characters. */
  maxUrlLength?: number;
  /** How long a client may take to send its request headers, in ms (default 10,000); then a JSON 408. */
  headersTimeoutMs?: number;
  /** Open client connections at most (default 8192); more get a JSON 503 with Retry-After and are closed. */
  maxConnections?: number;
  /**
   * A request whose answer has not started this long after it arrived gets a JSON 503 (ms,
   * default 15,000): no request is left waiting on work that went wrong. Streamed answers that
   * have started are bounded by `stallTimeoutMs` instead.
   */
  answerDeadlineMs?: number;
  /** True while the process drains for shutdown: /ready answers 503 so load balancers move on. */
  draining?: () => boolean;
  /** Per-client limit on /api/* and /graphql (absent: none); over it a JSON 429 with Retry-After. */
  rateLimit?: { perSecond: number; burst?: number; trustProxy?: boolean };
  /**
   * Clients are told apart by X-Forwarded-For's first address (only behind a proxy that sets
   * it), for the rate limit and GraphQL's client budget alike (default: rateLimit.trustProxy).
   */
  trustProxy?: boolean;
  /** The built dashboard served at `/` (default: web/dist/ of this installation). */
  dashboardDir?: string;
}

const GRAPHQL_PATH = "/graphql";
const GRAPHQL_ANSWER = { cache: "graphql_answer" };
const GRAPHQL_ALLOWED = "GET, POST, OPTIONS";
// Every method node parses that a read-only path does not take (CONNECT aside, which node hands
// to the 'connect' event): they get a 405 with Allow. Fastify itself would answer 404, as if the
// path did not exist; the methods it does not route by default (WebDAV's and others) are taught
// to it below.
// The framework's gzip (one coding: one ETag per representation); a route may set its own level.
const compressOptions = () => ({ encodings: ["gzip" as const], threshold: 1024 });

const ROUTED_ELSEWHERE = new Set(["GET", "HEAD", "OPTIONS", "CONNECT"]);
const OTHER_METHODS = METHODS.filter((method) => !ROUTED_ELSEWHERE.has(method));

// Whether this process can serve, not whether a remote RPC is healthy: a load balancer that
// took every replica out during an RPC outage would turn stale-but-served data into no data.
function everyNetworkReady(reader: MarketReader): boolean {
  const networks = reader.networks();
  return (
    networks.length > 0 &&
    networks.every((network) => {
      const status = reader.status(network);
      return status.ready && !status.halted;
    })
  );
}

/**
 * Creates the one HTTP server (Fastify): /api/* (REST facade, query parameters validated by the
 * JSON Schemas the OpenAPI document publishes), /graphql (yoga), the docs pages, /health (alive),
 * /ready (503 until every configured network finished its backfill, while one is halted, and
 * while draining) and /metrics. Resolves to the node:http server, ready to `.listen()`.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<Server> {
  const { reader, graphql } = options;
  const logger = options.logger ?? pino();
  const maxUrlLength = options.maxUrlLength ?? 2048;
  const ready = options.ready ?? (() => everyNetworkReady(reader));
  const metrics = options.metrics ?? createMetrics(reader);
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const answerDeadlineMs = options.answerDeadlineMs ?? 15_000;
  const rateLimit =
    options.rateLimit !== undefined && options.rateLimit.perSecond > 0 ? options.rateLimit : undefined;

  const app = Fastify({
    // Requests are logged by outcome (toRestError, useClientErrorLogging), not one line each.
    logger: false,
    // A slow client must not hold a socket forever. These bound receiving the request only; a
    // streamed answer gives up on a client that reads nothing for a while (its own timeout).
    http: {
      // A request without Host is answered below, in JSON, instead of by node with an empty body.
      requireHostHeader: false,
      headersTimeout,
      // How often node looks for requests past their deadline (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    } as ServerOptions,
    requestTimeout: Math.max(30_000, headersTimeout),
    keepAliveTimeout: 5_000,
    bodyLimit: GRAPHQL_LIMITS.maxRequestBodySize,
    trustProxy: options.trustProxy ?? rateLimit?.trustProxy === true,
    // An empty parameter counts as missing; a repeated one stays a list, which the schemas refuse.
    routerOptions: { querystringParser: parseQueryString },
    ajv: { customOptions: { verbose: true } },
    schemaErrorFormatter: formatQueryErrors,
    clientErrorHandler: answerClientError,
  });
  for (const method of OTHER_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  const server = app.server;
  // Beyond the cap connections are refused (a JSON 503), so a flood of idle clients cannot take
  // the file descriptors the indexer needs for its RPC and store connections.
  capConnections(server, { maxConnections: options.maxConnections ?? 8192 });
  // CONNECT asks for a tunnel; node leaves the socket to this event (without a listener it
  // would close it without a word).
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    socket.on("error", () => undefined);
    const body = JSON.stringify({ error: "Method CONNECT is not allowed: this server is not a proxy." });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\n` +
        `Content-Type: ${JSON_HEADERS["Content-Type"]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    req.destroy();
  });
  // Node answers an Expect it cannot meet itself, with an empty body.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({
      error: `Expect: ${shorten(String(req.headers.expect), 20)} is not supported.`,
    });
    res.writeHead(417, { ...JSON_HEADERS, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });

  // One CORS policy for every path: public read-only data, any origin, no credentials. The
  // preflight is cached for a day: its answer never changes.
  await app.register(fastifyCors, {
    origin: "*",
    methods: ALLOWED_METHODS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
    strictPreflight: false,
  });
  // Timings per route: 'close' also comes when a streamed answer was cut off (client gone, or
  // destroyed on an error after the first byte), which counts as "aborted".
  app.addHook("onRequest", async (request, reply) => {
    const started = performance.now();
    const res = reply.raw;
    // No request waits forever: past the deadline with no answer begun, a JSON 503 (the error
    // handler words it). Whatever the handler does later finds the reply sent and is dropped.
    const deadline = setTimeout(() => {
      if (res.headersSent || reply.sent) return;
      countEvent("http_refusals", { reason: "answer_deadline" });
      reply.send(new AnswerDeadlineError(answerDeadlineMs));
    }, answerDeadlineMs);
    res.once("close", () => {
      clearTimeout(deadline);
      const route = request.routeOptions.url ?? "other";
      metrics.observe(
        request.is404 ? "other" : route,
        res.writableFinished ? res.statusCode : "aborted",
        (performance.now() - started) / 1000,
      );
    });
    // Refused before the body is read: the method is wrong whatever the body says.
    const allow = (request.routeOptions.config as { allow?: string }).allow;
    if (allow !== undefined) throw new MethodNotAllowedError({ method: request.method, allow });
    const req = request.raw;
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      throw new SwapgraphError("BAD_REQUEST", "An HTTP/1.1 request needs a Host header.");
    }
    // GraphQL GET queries may be long: node's header size limit (16 KB) bounds them.
    if (request.url.length > maxUrlLength && request.routeOptions.url !== GRAPHQL_PATH) {
      throw new SwapgraphError(
        "BAD_REQUEST",
        `The request URL is too long: at most ${maxUrlLength} characters.`,
      );
    }
  });

  // Answers made here are gzipped when worth it; kept answers carry their own gzip copy (the
  // plugin leaves an answer with a Content-Encoding alone). One coding: one ETag per representation.
  await app.register(fastifyCompress, { ...compressOptions(), globalDecompression: false });
  if (rateLimit !== undefined) {
    const burst = Math.max(1, rateLimit.burst ?? rateLimit.perSecond);
    // A window holding one burst at the sustained rate: `burst` requests per burst/perSecond seconds.
    const windowMs = Math.max(1_000, Math.round((burst / rateLimit.perSecond) * 1000));
    await app.register(fastifyRateLimit, {
      // Every route added from here on counts against one budget per client, unless its config
      // says `rateLimit: false` (probes, docs, refusals); the API and GraphQL routes share it.
      global: true,
      max: burst,
      timeWindow: windowMs,
      cache: 100_000,
      keyGenerator: (request) => request.ip,
      errorResponseBuilder: (_request, context) =>
        new RateLimitedError(rateLimit.perSecond, Math.max(1, Math.ceil(context.ttl / 1000))),
    });
  }
  // Route config of what the client rate limit leaves alone.
  const unlimited = (config: Record<string, unknown> = {}) => ({
    config: { ...config, rateLimit: false as const },
  });

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

  // The onRequest hook answers these (405 with Allow) before any body is read.
  const notAllowed = async () => undefined;
  const readOnly = (url: string) =>
    app.route({
      method: [...OTHER_METHODS],
      url,
      ...unlimited({ allow: ALLOWED_METHODS }),
      handler: notAllowed,
    });

  // REST facade: fixed GraphQL operations behind the spec's JSON.
  const hourCache =
    options.swapsCacheDir === undefined ? undefined : createSwapHourCache(options.swapsCacheDir);
  if (hourCache !== undefined) server.once("close", () => hourCache.close());
  const routes: RestRoute[] = createRestHandlers({
    ...(hourCache === undefined ? {} : { hourCache }),
    // The REST facade sees GraphQL only: fixed operations on the schema /graphql serves.
    executor: createGraphqlExecutor({ reader, schema: options.schema ?? buildSchema(), logger }),
    ...(options.swapsPageSize === undefined ? {} : { swapsPageSize: options.swapsPageSize }),
    ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
    ...(options.sharedListMaxChars === undefined ? {} : { sharedListMaxChars: options.sharedListMaxChars }),
    logger,
  });
  for (const route of routes) {
    const compress = route.ownCompression
      ? false
      : route.gzipLevel === undefined
        ? undefined
        : { ...compressOptions(), zlibOptions: { level: route.gzipLevel } };
    app.get(
      route.path,
      { schema: { querystring: route.querySchema }, ...(compress === undefined ? {} : { compress }) },
      route.handler,
    );
    readOnly(route.path);
  }

  // The dashboard (/ and its /assets/), /openapi.json and the API reference (/docs).
  for (const route of createDocsRoutes(
    options.dashboardDir === undefined ? {} : { dashboardDir: options.dashboardDir },
  )) {
    app.get(route.path, { ...unlimited(), compress: false }, route.handler);
    readOnly(route.path);
  }

  const alive = Buffer.from('{"status":"ok"}');
  const readyBody = Buffer.from('{"status":"ready"}');
  app.get("/health", { ...unlimited(), compress: false }, async (_request, reply) =>
    reply.headers(JSON_HEADERS).send(alive),
  );
  readOnly("/health");
  app.get("/ready", { ...unlimited(), compress: false }, async (_request, reply) => {
    if (options.draining?.() === true)
      throw new SwapgraphError("NOT_READY", "Not ready: this server is shutting down.");
    if (!ready())
      throw new SwapgraphError("NOT_READY", "Not ready: indexing has not caught up on every network yet.");
    return reply.headers(JSON_HEADERS).send(readyBody);
  });
  readOnly("/ready");
  app.get("/metrics", unlimited(), async (_request, reply) =>
    reply.header("Content-Type", metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  readOnly("/metrics");

  // GraphQL over HTTP through yoga. Fastify has parsed the JSON body (its limit is yoga's), so
  // yoga reads `request.body` instead of the stream.
  // Nothing here takes a text body (Fastify parses text/plain by default): it gets the JSON 415.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/graphql-response+json",
    { parseAs: "string" },
    app.getDefaultJsonParser("error", "error"),
  );
  app.route({
    method: ["GET", "POST"],
    url: GRAPHQL_PATH,
    handler: async (request, reply) => {
      // Every shape of body is answered: one yoga cannot use (null, a primitive, an array, an
      // empty object) would otherwise leave its adapter waiting on a stream Fastify has read.
      checkGraphqlRequest({ method: request.method, body: request.body, query: request.query });
      // A repeated cacheable request (same method, query or body, Accept; same market state)
      // is answered from its kept bytes without going through yoga.
      const edge = graphql.edgeCache;
      const key =
        edge === undefined
          ? undefined
          : `${request.method}\n${request.headers.accept ?? ""}\n${
              request.method === "POST" ? JSON.stringify(request.body) : request.url
            }\n${edge.marketState()}`;
      const kept = key === undefined ? undefined : edge?.answers.get(key);
      if (kept !== undefined) {
        countEvent("cache_hits", GRAPHQL_ANSWER);
        for (const [name, value] of kept.headers) reply.header(name, value);
        return reply.code(kept.status).send(kept.body);
      }
      // The client key is the rate limit's (request.ip, which honours trustProxy): GraphQL's
      // per-client budget charges the same client.
      const handle = async () =>
        graphql.handleNodeRequestAndResponse(request, reply, {
          req: request.raw,
          res: reply.raw,
          clientKey: request.ip,
        });
      const { value: response, cacheable } =
        edge === undefined ? { value: await handle(), cacheable: false } : await edge.answers.run(handle);
      const headers = [...response.headers].filter(([name]) => name !== "content-length");
      for (const [name, value] of headers) reply.header(name, value);
      reply.code(response.status);
      // Every error answer says why in JSON (yoga leaves a few empty).
      if (response.body === null && response.status >= 400) {
        reply.header("Content-Type", JSON_HEADERS["Content-Type"]);
        return reply.send({ errors: [{ message: STATUS_CODES[response.status] ?? "Request refused." }] });
      }
      if (cacheable && key !== undefined && response.status === 200 && response.body !== null) {
        const body = Buffer.from(await response.arrayBuffer());
        // A miss is an answer that could have been kept: one that now is.
        countEvent("cache_misses", GRAPHQL_ANSWER);
        edge?.answers.set(key, { status: response.status, headers, body });
        return reply.send(body);
      }
      return reply.send(response.body);
    },
  });
  // Its preflight names its own methods (the plugin answers it from the route's config).
  app.options(GRAPHQL_PATH, unlimited({ cors: { methods: GRAPHQL_ALLOWED } }), notAllowed);
  app.route({
    method: OTHER_METHODS.filter((method) => method !== "POST"),
    url: GRAPHQL_PATH,
    ...unlimited({ allow: GRAPHQL_ALLOWED }),
    handler: notAllowed,
  });

  await app.ready();
  return server;
}

// Malformed requests, slow headers and oversized headers are refused by node before routing:
// keep their answers JSON like every other error.
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed || !socket.writable) return;
  const [status, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? ["431 Request Header Fields Too Large", "Request headers are too large."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["408 Request Timeout", "The request was not received in time."]
        : ["400 Bad Request", "Malformed HTTP request."];
  const payload = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_HEADERS["Content-Type"]}\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
