import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { GraphQLSchema } from "graphql";
import { type Logger, pino } from "pino";
import type { MarketReader } from "../domain/market.js";
import { RateLimitedError, SwapgraphError } from "../errors.js";
import { buildSchema } from "../graphql/buildSchema.js";
import { createGraphqlExecutor } from "../graphql/createGraphqlExecutor.js";
import type { GraphqlServer } from "../graphql/createGraphqlServer.js";
import { createClientRateLimit } from "./createClientRateLimit.js";
import { createDocsRoutes } from "./createDocsRoutes.js";
import { createMetrics, type Metrics } from "./createMetrics.js";
import { createRestHandlers, type RestHandler } from "./createRestHandlers.js";
import { ClientGoneError } from "./openChunkedAnswer.js";
import { acceptsGzip, JSON_HEADERS, sendJson } from "./sendJson.js";
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
  /** Largest whole-window /api/swaps_24h answer shared within its block and second (characters; 0: never). */
  sharedListMaxChars?: number;
  /** Prometheus metrics served on /metrics (default: a new registry). */
  metrics?: Metrics;
  /** Longest accepted request target (path and query string), default 2048 characters. */
  maxUrlLength?: number;
  /** How long a client may take to send its request headers, in ms (default 10,000); then a JSON 408. */
  headersTimeoutMs?: number;
  /** Open client connections at most (default 8192); more are refused by the server. */
  maxConnections?: number;
  /** True while the process drains for shutdown: /ready answers 503 so load balancers move on. */
  draining?: () => boolean;
  /** Per-client limit on /api/* and /graphql (absent: none); over it a JSON 429 with Retry-After. */
  rateLimit?: { perSecond: number; burst?: number; trustProxy?: boolean };
}

const GRAPHQL_PATH = "/graphql";
// Browsers cache the preflight for a day: the answer never changes.
const GRAPHQL_METHODS = "GET, POST, OPTIONS";
const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": ALLOWED_METHODS,
  "Access-Control-Max-Age": "86400",
};
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;

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
 * Creates the one HTTP server: /api/* (REST facade), /graphql (yoga), /health (alive) and
 * /ready (503 until every configured network finished its backfill, and while one is halted).
 * The router is a map lookup: this is the hot path. Call `.listen()` on the result.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { reader, graphql } = options;
  const logger = options.logger ?? pino();
  const maxUrlLength = options.maxUrlLength ?? 2048;
  const ready = options.ready ?? (() => everyNetworkReady(reader));

  const routes = new Map<string, RestHandler>(
    createRestHandlers({
      // The REST facade sees GraphQL only: fixed operations on the schema /graphql serves.
      executor: createGraphqlExecutor({ reader, schema: options.schema ?? buildSchema(), logger }),
      ...(options.swapsPageSize === undefined ? {} : { swapsPageSize: options.swapsPageSize }),
      ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
      ...(options.sharedListMaxChars === undefined ? {} : { sharedListMaxChars: options.sharedListMaxChars }),
    }),
  );
  const alive = Buffer.from('{"status":"ok"}');
  const readyBody = Buffer.from('{"status":"ready"}');
  routes.set("/health", async ({ res, head }) => sendJson(res, 200, alive, { head }));
  routes.set("/ready", async ({ res, head }) => {
    if (options.draining?.() === true)
      throw new SwapgraphError("NOT_READY", "Not ready: this server is shutting down.");
    if (!ready())
      throw new SwapgraphError("NOT_READY", "Not ready: indexing has not caught up on every network yet.");
    sendJson(res, 200, readyBody, { head });
  });
  // The landing page (/), /openapi.json and the API reference (/docs).
  for (const [path, handler] of createDocsRoutes()) routes.set(path, handler);

  const metrics = options.metrics ?? createMetrics(reader);

  const limiter =
    options.rateLimit === undefined || !(options.rateLimit.perSecond > 0)
      ? undefined
      : createClientRateLimit({
          perSecond: options.rateLimit.perSecond,
          ...(options.rateLimit.burst === undefined ? {} : { burst: options.rateLimit.burst }),
        });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const head = method === "HEAD";
    const started = performance.now();
    let route = "other";
    // 'close' also comes when a streamed answer was cut off (client gone, or destroyed on error).
    res.once("close", () =>
      metrics.observe(
        route,
        res.writableFinished ? res.statusCode : "aborted",
        (performance.now() - started) / 1000,
      ),
    );
    try {
      if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
        throw new SwapgraphError("BAD_REQUEST", "An HTTP/1.1 request needs a Host header.");
      }
      const target = req.url ?? "/";
      const queryStart = target.indexOf("?");
      const path = queryStart === -1 ? target : target.slice(0, queryStart);
      if (limiter !== undefined && (path === GRAPHQL_PATH || path.startsWith("/api/"))) {
        const waitMs = limiter.take(clientOf(req, options.rateLimit?.trustProxy === true));
        if (waitMs !== undefined) {
          route = path === GRAPHQL_PATH ? GRAPHQL_PATH : "other";
          throw new RateLimitedError(options.rateLimit!.perSecond, Math.ceil(waitMs / 1000));
        }
      }
      // GraphQL GET queries may be long; node's header size limit (16 KB) bounds them.
      if (path === GRAPHQL_PATH) {
        route = GRAPHQL_PATH;
        // The same CORS policy as the REST paths (yoga's own is off): any origin, no credentials.
        if (method === "OPTIONS") {
          sendPreflight(req, res, GRAPHQL_METHODS);
          return;
        }
        res.setHeader("Access-Control-Allow-Origin", "*");
        if (method === "POST" && !isJsonBody(req.headers["content-type"])) {
          // yoga answers these 415 with an empty body; every error here says why in JSON.
          sendJson(
            res,
            415,
            { errors: [{ message: "POST /graphql takes a JSON body: Content-Type: application/json." }] },
            { headers: { Accept: "application/json" } },
          );
          return;
        }
        await graphql(req, res);
        return;
      }
      if (path === "/metrics" && method !== "GET" && !head) {
        route = path;
        throw new SwapgraphError(
          "METHOD_NOT_ALLOWED",
          `Method ${shortMethod(method)} is not allowed; use GET.`,
        );
      }
      if (path === "/metrics") {
        route = path;
        const text = await metrics.registry.metrics();
        res.writeHead(200, { "Content-Type": metrics.registry.contentType });
        res.end(head ? undefined : text);
        return;
      }
      if (target.length > maxUrlLength) {
        throw new SwapgraphError(
          "BAD_REQUEST",
          `The request URL is too long: at most ${maxUrlLength} characters.`,
        );
      }
      const handler = routes.get(path);
      if (handler === undefined) throw new SwapgraphError("NOT_FOUND", `Unknown path ${shortPath(path)}.`);
      route = path;
      if (method === "OPTIONS") {
        sendPreflight(req, res);
        return;
      }
      if (method !== "GET" && !head) {
        throw new SwapgraphError(
          "METHOD_NOT_ALLOWED",
          `Method ${shortMethod(method)} is not allowed; use GET.`,
        );
      }
      await handler({
        params: new URLSearchParams(queryStart === -1 ? "" : target.slice(queryStart + 1)),
        head,
        gzip: acceptsGzip(req.headers["accept-encoding"]),
        res,
      });
    } catch (error) {
      if (res.headersSent || res.destroyed) {
        // Bytes went out (or the client left): a truncated body is the only honest signal left.
        if (error instanceof ClientGoneError) logger.debug({ route, reason: error.message }, "client gone");
        else toRestError(error, logger);
        res.destroy();
        return;
      }
      const { status, body, headers } = toRestError(error, logger);
      sendJson(res, status, body, { head, headers });
    }
  }

  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const server = createServer(
    // A slow client must not hold a socket forever. These bound receiving the request only; a
    // streamed answer gives up on a client that reads nothing for a while (openChunkedAnswer).
    {
      // A request without Host is answered below, in JSON, instead of by node with an empty body.
      requireHostHeader: false,
      headersTimeout,
      requestTimeout: Math.max(30_000, headersTimeout),
      keepAliveTimeout: 5_000,
      // How often node looks for requests past their deadline (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req, res) => void handle(req, res),
  );
  // Malformed requests and oversized headers are rejected by node before routing: keep them JSON too.
  // Node answers these itself with empty bodies: a missing Host and an Expect it cannot meet.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    sendJson(res, 417, { error: `Expect: ${shortMethod(String(req.headers.expect))} is not supported.` });
  });
  // Beyond the cap node refuses connections, so a flood of idle clients cannot take the file
  // descriptors the indexer needs for its RPC and store connections.
  server.maxConnections = options.maxConnections ?? 8192;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return;
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
  });
  return server;
}

/** The client a request counts against: the peer, or behind a trusted proxy the first X-Forwarded-For hop. */
function clientOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers["x-forwarded-for"] : undefined;
  const first = typeof forwarded === "string" ? forwarded.split(",")[0]?.trim() : undefined;
  return first !== undefined && first !== "" ? first : (req.socket.remoteAddress ?? "unknown");
}

/** True for JSON request bodies (what GraphQL over HTTP takes; yoga refuses the rest). */
function isJsonBody(contentType: string | undefined): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || type === "application/graphql-response+json";
}

function sendPreflight(req: IncomingMessage, res: ServerResponse, methods = ALLOWED_METHODS): void {
  const requested = req.headers["access-control-request-headers"];
  const headers: Record<string, string> = {
    ...PREFLIGHT_HEADERS,
    "Access-Control-Allow-Methods": methods,
    "Content-Length": "0",
  };
  // Echo a sane header list (no credentials are involved, so any header is harmless).
  if (typeof requested === "string" && requested.length <= 500 && HEADER_LIST.test(requested)) {
    headers["Access-Control-Allow-Headers"] = requested;
    headers.Vary = "Access-Control-Request-Headers";
  }
  res.writeHead(204, headers);
  res.end();
}

function shortPath(path: string): string {
  return path.length > 100 ? `${path.slice(0, 100)}...` : path;
}

function shortMethod(method: string): string {
  return method.length > 20 ? `${method.slice(0, 20)}...` : method;
}
