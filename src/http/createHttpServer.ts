import type { ServerOptions } from "node:http";
import fastifyCompress from "@fastify/compress";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import { type Logger, pino } from "pino";
import { LIST_BUDGET_DEFAULTS } from "../config/networkConfigSchema.js";
import { RateLimitedError } from "../errors.js";
import type { GraphqlServer } from "../graphql/createGraphqlServer.js";
import type { LazyGraphqlServer } from "../graphql/createLazyGraphqlServer.js";
import { GRAPHQL_LIMITS } from "../graphql/graphqlLimits.js";
import { createLazyValidators } from "../lib/createLazyValidators.js";
import { createMetrics, type Metrics } from "../metrics/createMetrics.js";
import { createAnswerStore } from "../views/answers/createAnswerStore.js";
import type { SettledSwapHours } from "../views/answers/createSettledSwapHours.js";
import type { MarketReader } from "../views/types.js";
import { answerClientError } from "./answerClientError.js";
import { routePreflights } from "./answerCors.js";
import { answerOutsideRoutes } from "./answerOutsideRoutes.js";
import { formatQueryErrors } from "./api/formatQueryErrors.js";
import { restPlugin } from "./api/restPlugin.js";
import { capConnections } from "./capConnections.js";
import { createListBudget } from "./createListBudget.js";
import { createRequestHook } from "./createRequestHook.js";
import { dexScreenerPlugin } from "./dexscreener/dexScreenerPlugin.js";
import { listingsPlugin } from "./listings/listingsPlugin.js";
import { parseQueryString } from "./parseQueryString.js";
import { dashboardPlugin } from "./plugins/dashboardPlugin.js";
import { collectDocumentedRoutes, docsPlugin } from "./plugins/docsPlugin.js";
import { graphqlPlugin } from "./plugins/graphqlPlugin.js";
import { probesPlugin } from "./plugins/probesPlugin.js";
import { OTHER_METHODS } from "./routeConfig.js";
import { setErrorHandling } from "./setErrorHandling.js";

/** Options of createHttpServer. */
export interface HttpServerOptions {
  reader: MarketReader;
  /** The GraphQL server that answers /graphql, or one built on its first request (createLazyGraphqlServer). */
  graphql: GraphqlServer | LazyGraphqlServer;
  /**
   * Readiness for /ready (default: every configured network finished its backfill once and is
   * not halted; a degraded network, whose RPC is down, still counts as ready).
   */
  ready?: () => boolean;
  /** Default: pino at info level. */
  logger?: Logger;
  /** Swaps per page read while /api/swaps_24h streams (1..1000, default 250). */
  swapsPageSize?: number;
  /** How long a streamed answer waits for a client that reads nothing (ms, default 60,000). */
  stallTimeoutMs?: number;
  /** Largest whole-window /api/swaps_24h answer shared within its block and second (bytes; 0: never). */
  sharedListMaxChars?: number;
  /**
   * The settled hours of /api/swaps_24h the read model keeps rendered on disk
   * (createSettledSwapHours): a whole-window list reads them from there and renders only its
   * moving ends. Default: none, every list is read whole from the store.
   */
  swapHours?: SettledSwapHours;
  /** Prometheus metrics served on /metrics (default: a new registry). */
  metrics?: Metrics;
  /** Longest accepted request target (path and query string), default 2048 characters. */
  maxUrlLength?: number;
  /** How long a client may take to send its request headers, in ms (default 10,000); then a JSON 408. */
  headersTimeoutMs?: number;
  /** Open client connections at most (default 8192); more get a JSON 503 with Retry-After and are closed. */
  maxConnections?: number;
  /**
   * The share of maxConnections one source address may hold (0..1, default 0.25): past it its
   * new connections get the JSON 503, and when the server is full its uploads and idle
   * connections give way to addresses holding fewer. Counted by the socket's address: with
   * trustProxy every connection comes from the proxy, so the share is not applied (bound
   * connections per client at the proxy); request budgets use the forwarded address.
   */
  connectionShare?: number;
  /**
   * Per-client budget of list bytes (/api/swaps_24h, a pool's trades, DEX Screener's events;
   * default LIST_BUDGET_DEFAULTS; bytesPerSecond 0: none): past it a JSON 429 with Retry-After.
   */
  listBudget?: { bytesPerSecond: number; burstBytes: number };
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

// Answers made here are gzipped when worth it; kept answers carry their own gzip copy (the
// plugin leaves an answer with a Content-Encoding alone). One coding: one ETag per representation.
const COMPRESS_OPTIONS = { encodings: ["gzip" as const], threshold: 1024, globalDecompression: false };

/** The Fastify instance: limits on receiving a request, and the methods it routes. */
function createFastify(options: HttpServerOptions, trustProxy: boolean): FastifyInstance {
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const production = process.env.NODE_ENV === "production";
  const app = Fastify({
    // Requests are logged by outcome (toRestError, useClientErrorLogging), not one line each.
    logger: false,
    // A slow client must not hold a socket forever. These bound receiving the request only; a
    // streamed answer gives up on a client that reads nothing for a while (its own timeout).
    http: {
      // A request without Host is answered by the request hook, in JSON, instead of by node with an empty body.
      requireHostHeader: false,
      headersTimeout,
      // How often node looks for requests past their deadline (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    } as ServerOptions,
    requestTimeout: Math.max(30_000, headersTimeout),
    keepAliveTimeout: 5_000,
    bodyLimit: GRAPHQL_LIMITS.maxRequestBodySize,
    trustProxy,
    // An empty parameter counts as missing; a repeated one stays a list, which the schemas refuse.
    // A path parameter may hold a listing pair (base_target_pool: 128 characters).
    routerOptions: { querystringParser: parseQueryString, maxParamLength: 256 },
    // The route schemas are fixed: checked against JSON Schema's meta-schema outside production
    // (every test that builds the server), not on each production start, where compiling that
    // meta-schema was most of the validators' cost.
    ajv: { customOptions: { verbose: true, validateSchema: !production } },
    // For the same reason each route's validator is compiled on its first request in production
    // only: every test that builds the server still compiles, and checks, them all at once.
    ...(production
      ? { schemaController: { compilersFactory: { buildValidator: createLazyValidators() } } }
      : {}),
    schemaErrorFormatter: formatQueryErrors,
    clientErrorHandler: answerClientError,
  });
  for (const method of OTHER_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  // Beyond the cap connections are refused (a JSON 503), so a flood of idle clients cannot take
  // the file descriptors the indexer needs for its RPC and store connections.
  const maxConnections = options.maxConnections ?? 8192;
  const share = options.connectionShare ?? 0.25;
  capConnections(app.server, {
    maxConnections,
    // Behind a proxy every connection has the proxy's address: a share of it would cap everybody.
    ...(trustProxy ? {} : { maxPerAddress: Math.max(1, Math.floor(maxConnections * share)) }),
  });
  answerOutsideRoutes(app.server);
  // Nothing here takes a text body (Fastify parses text/plain by default): it gets the JSON 415.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/graphql-response+json",
    { parseAs: "string" },
    app.getDefaultJsonParser("error", "error"),
  );
  return app;
}

/**
 * Creates the one HTTP server (Fastify), ready: /api/* (the REST facade), /graphql (yoga), the
 * dashboard and the docs pages, /health, /ready and /metrics, each concern a plugin, with one
 * CORS policy, one request hook, one rate limit and one error handler for all. `.server` is the
 * node:http server to `.listen()`; `.inject()` answers in-process.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const logger = options.logger ?? pino();
  const metrics = options.metrics ?? createMetrics(options.reader);
  const rateLimit =
    options.rateLimit !== undefined && options.rateLimit.perSecond > 0 ? options.rateLimit : undefined;
  const app = createFastify(options, options.trustProxy ?? rateLimit?.trustProxy === true);

  // First: one CORS policy for every path (answerCors), the timing, the deadline, the refusals.
  app.addHook(
    "onRequest",
    createRequestHook({
      metrics,
      answerDeadlineMs: options.answerDeadlineMs ?? 15_000,
      maxUrlLength: options.maxUrlLength ?? 2048,
    }),
  );
  routePreflights(app);
  const listBudget = options.listBudget ?? LIST_BUDGET_DEFAULTS;
  if (listBudget.bytesPerSecond > 0) {
    // Route-scoped: only the list routes (config `listBudget`) run it, after the hooks above.
    const chargeList = createListBudget(listBudget);
    app.addHook("onRoute", (route) => {
      if (route.config?.listBudget !== true) return;
      const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
      route.onRequest = [chargeList, ...own];
    });
  }
  await app.register(fastifyCompress, COMPRESS_OPTIONS);
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
  setErrorHandling(app, logger);

  // One store of market answers for both edges: bytes by request, valid for one indexed state.
  const answers = createAnswerStore();
  const documented = collectDocumentedRoutes(app);
  await app.register(restPlugin, {
    reader: options.reader,
    answers,
    ...(options.swapHours === undefined ? {} : { swapHours: options.swapHours }),
    ...(options.swapsPageSize === undefined ? {} : { swapsPageSize: options.swapsPageSize }),
    ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
    ...(options.sharedListMaxChars === undefined ? {} : { sharedListMaxChars: options.sharedListMaxChars }),
    logger,
  });
  await app.register(listingsPlugin, { reader: options.reader, answers, logger });
  await app.register(dexScreenerPlugin, { reader: options.reader, answers, logger });
  await app.register(
    dashboardPlugin,
    options.dashboardDir === undefined ? {} : { dir: options.dashboardDir },
  );
  await app.register(docsPlugin, { routes: documented });
  await app.register(probesPlugin, {
    reader: options.reader,
    metrics,
    ...(options.ready === undefined ? {} : { ready: options.ready }),
    ...(options.swapHours === undefined ? {} : { swapHours: options.swapHours }),
    ...(options.draining === undefined ? {} : { draining: options.draining }),
  });
  await app.register(graphqlPlugin, { graphql: options.graphql, answers });
  await app.ready();
  return app;
}
