import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { GraphQLSchema } from "graphql";
import { type Logger, pino } from "pino";
import type { MarketReader } from "../domain/market.js";
import { SwapgraphError } from "../errors.js";
import { buildSchema } from "../graphql/buildSchema.js";
import type { GraphqlServer } from "../graphql/createGraphqlServer.js";
import { createMetrics, type Metrics } from "./createMetrics.js";
import { createRestHandlers, type RestHandler } from "./createRestHandlers.js";
import { acceptsGzip, JSON_HEADERS, sendJson } from "./sendJson.js";
import { ALLOWED_METHODS, toRestError } from "./toRestError.js";

/** Options of createHttpServer. */
export interface HttpServerOptions {
  reader: MarketReader;
  /** The GraphQL server that answers /graphql. */
  graphql: GraphqlServer;
  /** The schema `graphql` serves (default: buildSchema()); the REST facade executes against it. */
  schema?: GraphQLSchema;
  /** Readiness for /ready (default: every configured network is ready and not halted). */
  ready?: () => boolean;
  /** Default: pino at info level. */
  logger?: Logger;
  /** How long /api/swaps_24h and /api/trade_volume_usd_7d answers are shared, in ms (default 1000; 0: off). */
  listCacheMs?: number;
  /** Prometheus metrics served on /metrics (default: a new registry). */
  metrics?: Metrics;
  /** Longest accepted request target (path and query string), default 2048 characters. */
  maxUrlLength?: number;
}

const GRAPHQL_PATH = "/graphql";
// Browsers cache the preflight for a day: the answer never changes.
const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": ALLOWED_METHODS,
  "Access-Control-Max-Age": "86400",
};
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;

function everyNetworkReady(reader: MarketReader): boolean {
  const networks = reader.networks();
  return (
    networks.length > 0 &&
    networks.every((network) => {
      const status = reader.status(network);
      return status.ready && status.error === undefined;
    })
  );
}

/**
 * Creates the one HTTP server: /api/* (REST facade), /graphql (yoga), /health (alive) and
 * /ready (503 until every configured network is ready). The router is a map lookup: this is
 * the hot path. Call `.listen()` on the result.
 */
export function createHttpServer(options: HttpServerOptions): Server {
  const { reader, graphql } = options;
  const logger = options.logger ?? pino();
  const maxUrlLength = options.maxUrlLength ?? 2048;
  const ready = options.ready ?? (() => everyNetworkReady(reader));

  const routes = new Map<string, RestHandler>(
    createRestHandlers({
      reader,
      schema: options.schema ?? buildSchema(),
      logger,
      ...(options.listCacheMs === undefined ? {} : { listCacheMs: options.listCacheMs }),
    }),
  );
  const alive = Buffer.from('{"status":"ok"}');
  const readyBody = Buffer.from('{"status":"ready"}');
  routes.set("/health", async () => alive);
  routes.set("/ready", async () => {
    if (!ready())
      throw new SwapgraphError("NOT_READY", "Not ready: indexing has not caught up on every network yet.");
    return readyBody;
  });

  const metrics = options.metrics ?? createMetrics(reader);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const head = method === "HEAD";
    const started = performance.now();
    let route = "other";
    res.once("finish", () => metrics.observe(route, res.statusCode, (performance.now() - started) / 1000));
    try {
      const target = req.url ?? "/";
      const queryStart = target.indexOf("?");
      const path = queryStart === -1 ? target : target.slice(0, queryStart);
      // GraphQL GET queries may be long; node's header size limit (16 KB) bounds them.
      if (path === GRAPHQL_PATH) {
        route = GRAPHQL_PATH;
        await graphql(req, res);
        return;
      }
      if (path === "/metrics" && (method === "GET" || head)) {
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
      const body = await handler(new URLSearchParams(queryStart === -1 ? "" : target.slice(queryStart + 1)));
      sendJson(res, 200, body, { head, gzip: acceptsGzip(req.headers["accept-encoding"]) });
    } catch (error) {
      const { status, body, headers } = toRestError(error, logger);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, status, body, { head, headers });
    }
  }

  const server = createServer(
    // A slow client must not hold a socket forever; the answers themselves take milliseconds.
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
    (req, res) => void handle(req, res),
  );
  // Malformed requests and oversized headers are rejected by node before routing: keep them JSON too.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return;
    const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
    const payload = JSON.stringify({
      error: tooLarge ? "Request headers are too large." : "Malformed HTTP request.",
    });
    const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_HEADERS["Content-Type"]}\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  });
  return server;
}

function sendPreflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = req.headers["access-control-request-headers"];
  const headers: Record<string, string> = { ...PREFLIGHT_HEADERS, "Content-Length": "0" };
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
