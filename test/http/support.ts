import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { createGraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import type { ClientBudgetOptions } from "../../src/graphql/plugins/createClientBudget.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { createHttpServer, type HttpServerOptions } from "../../src/http/createHttpServer.js";
import type { MarketReader } from "../../src/views/types.js";

/**
 * One request on a fresh connection (node:http, no keep-alive pool): a pooled socket can be
 * closed by the server's keep-alive timer while a long test blocks the event loop.
 */
async function request(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
  const { status, headers, text } = await new Promise<{ status: number; headers: Headers; text: string }>(
    (resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: init.method ?? "GET",
          headers: (init.headers ?? {}) as Record<string, string>,
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
            }
            resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8") });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(typeof init.body === "string" ? init.body : undefined);
    },
  );
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, headers, text, body };
}

/**
 * The HTTP server under test and a way to call it: `call` answers in-process (Fastify's inject,
 * no port); `server` and `baseUrl` are a real socket on 127.0.0.1, opened only with
 * `{ listen: true }` (streaming, stalls, connection caps, clients told apart by address, input
 * only a socket can carry).
 */
export interface TestServer {
  app: FastifyInstance;
  server: Server;
  baseUrl: string;
  call: (
    path: string,
    init?: RequestInit,
  ) => Promise<{ status: number; headers: Headers; text: string; body: unknown }>;
  close: () => Promise<void>;
}

/** A raw answer: the bytes as they came off the wire (still gzipped), and whether it was complete. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** False when the connection ended before the whole message (a truncated body). */
  complete: boolean;
}

/** One GET (or HEAD) on a fresh connection, reading the body as raw bytes. */
export function rawRequest(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const done = () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          complete: res.complete,
        });
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      // 'close' comes after 'end', and also when the server destroyed the socket mid-body
      // (then with an "aborted" error first, which `complete` reports).
      res.on("close", done);
      res.on("error", () => {});
    });
    req.on("error", reject);
    req.end();
  });
}

/** Options of startServer: any of the server's own (page size, limits, timeouts, ...). */
export type StartServerOptions = Omit<HttpServerOptions, "reader" | "graphql"> & {
  /** Open a real socket (default: none, every `call` is in-process). */
  listen?: boolean;
  /** The GraphQL server runs only the published operations. */
  persistedOperationsOnly?: boolean;
  /** The GraphQL server's per-client budget (default: none). */
  clientBudget?: ClientBudgetOptions;
};

/**
 * The real HTTP server (REST + GraphQL) over a reader, wired as the composition root wires it
 * (one schema and the GraphQL server), not listening: `.inject()` calls it in-process.
 */
export async function createTestServer(
  reader: MarketReader,
  options: StartServerOptions = {},
): Promise<FastifyInstance> {
  const logger = options.logger ?? pino({ level: "silent" });
  const schema = buildSchema();
  const { persistedOperationsOnly, clientBudget, ...httpOptions } = options;
  const graphql = createGraphqlServer({
    reader,
    schema,
    logger,
    ...(persistedOperationsOnly === undefined ? {} : { persistedOperationsOnly }),
    ...(clientBudget === undefined ? {} : { clientBudget }),
  });
  return createHttpServer({ ...httpOptions, reader, graphql, logger });
}

/** One request in-process (Fastify's inject): the answer as `call` gives it. */
async function inject(app: FastifyInstance, path: string, init: RequestInit = {}) {
  const response = await app.inject({
    method: (init.method ?? "GET") as "GET",
    url: path,
    headers: (init.headers ?? {}) as Record<string, string>,
    ...(typeof init.body === "string" ? { payload: init.body } : {}),
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
  }
  const text = response.body;
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode, headers, text, body };
}

/**
 * The real HTTP server (REST + GraphQL) over a reader: called in-process, and on an ephemeral
 * port of 127.0.0.1 with `{ listen: true }`.
 */
export async function startServer(
  reader: MarketReader,
  options: StartServerOptions = {},
): Promise<TestServer> {
  const { listen, ...serverOptions } = options;
  const app = await createTestServer(reader, serverOptions);
  const { server } = app;
  if (listen !== true) {
    const refuse = () => {
      throw new Error("This test server does not listen: start it with { listen: true }.");
    };
    return {
      app,
      get server(): Server {
        return refuse();
      },
      get baseUrl(): string {
        return refuse();
      },
      call: (path, init) => inject(app, path, init),
      close: () => app.close(),
    };
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    server,
    baseUrl,
    call: (path, init) => request(`${baseUrl}${path}`, init),
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}
