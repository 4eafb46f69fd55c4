import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import type { MarketReader } from "../../src/domain/market.js";
import { buildSchema } from "../../src/graphql/buildSchema.js";
import type { ClientBudgetOptions } from "../../src/graphql/createClientBudget.js";
import { createGraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { createHttpServer, type HttpServerOptions } from "../../src/rest/createHttpServer.js";

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

/** A started HTTP server on 127.0.0.1 and a way to call it. */
export interface TestServer {
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
export type StartServerOptions = Omit<HttpServerOptions, "reader" | "graphql" | "schema"> & {
  /** The GraphQL server runs only the published operations. */
  persistedOperationsOnly?: boolean;
  /** The GraphQL server's per-client budget (default: none). */
  clientBudget?: ClientBudgetOptions;
};

/** Starts the real HTTP server (REST + GraphQL) over a reader on an ephemeral port. */
export async function startServer(
  reader: MarketReader,
  options: StartServerOptions = {},
): Promise<TestServer> {
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
  const server = await createHttpServer({ ...httpOptions, reader, graphql, schema, logger });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    server,
    baseUrl,
    call: (path, init) => request(`${baseUrl}${path}`, init),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
