import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import type { MarketReader } from "../../src/domain/market.js";
import { buildSchema } from "../../src/graphql/buildSchema.js";
import { createGraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { createHttpServer } from "../../src/rest/createHttpServer.js";

/** A started HTTP server on 127.0.0.1 and a way to call it. */
export interface TestServer {
  server: Server;
  baseUrl: string;
  call: (path: string, init?: RequestInit) => Promise<{ status: number; headers: Headers; text: string; body: unknown }>;
  close: () => Promise<void>;
}

/** Starts the real HTTP server (REST + GraphQL) over a reader on an ephemeral port. */
export async function startServer(reader: MarketReader, logger = pino({ level: "silent" })): Promise<TestServer> {
  const schema = buildSchema();
  const graphql = createGraphqlServer({ reader, schema, logger });
  const server = createHttpServer({ reader, graphql, schema, logger });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    server,
    baseUrl,
    async call(path, init) {
      const response = await fetch(`${baseUrl}${path}`, init);
      const text = await response.text();
      let body: unknown;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: response.status, headers: response.headers, text, body };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
