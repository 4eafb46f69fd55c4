import type { Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { waitFor } from "../support/waitFor.js";
import { type StartServerOptions, startServer } from "./support.js";

// The server's own limits, on a real socket: what a slow or flooding client meets.
const MAX_CONNECTIONS = 4;
let fixture: Fixture;
// One server with a short header deadline; one with a small connection cap (and the default
// 10 s deadline, so that the connections it holds are not timed out during the test).
let impatient: Server;
let capped: Server;
let limited: Server;

async function listen(options: StartServerOptions): Promise<Server> {
  // Connection caps, clients by address and timeouts need real sockets.
  return (await startServer(fixture.reader, { ...options, listen: true })).server;
}

const refusals = (reason: string) =>
  readEventCounts("http_refusals").find((count) => count.labels.reason === reason)?.value ?? 0;

const portOf = (server: Server) => (server.address() as { port: number }).port;

beforeAll(async () => {
  fixture = await createFixtureReader();
  impatient = await listen({ headersTimeoutMs: 300 });
  // Every connection from one address: the whole cap is its share (fairness.test.ts tests shares).
  capped = await listen({ maxConnections: MAX_CONNECTIONS, connectionShare: 1 });
  // One request every 10 s after a burst of 3: no refill can sneak in while the test runs.
  limited = await listen({ rateLimit: { perSecond: 0.1, burst: 3, trustProxy: true } });
});

afterAll(async () => {
  for (const server of [impatient, capped, limited]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await fixture.close();
});

/** Opens a socket and collects everything the server sends until it closes it. */
function open(port: number): { socket: Socket; connected: Promise<void>; received: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const received = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => undefined);
  });
  return { socket, connected, received };
}

describe("HTTP limits", () => {
  test("error: request headers that do not arrive in time get a JSON 408", async () => {
    const client = open(portOf(impatient));
    await client.connected;
    client.socket.write("GET /api/quote?sellToken=BNB&buyToken=USDT HTTP/1.1\r\nHost: x\r\n");
    const text = await client.received;
    const [head = "", body = ""] = text.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    expect(head).toContain("Content-Type: application/json; charset=utf-8");
    expect(JSON.parse(body)).toEqual({ error: "The request was not received in time." });
  });

  test("behavior: connections past the cap get a JSON 503 with Retry-After and are closed; the server answers again once one closes", async () => {
    // Slow clients hold connections: each sends part of a request, then nothing.
    const server = capped;
    const port = portOf(server);
    const capRefusalsBefore = refusals("connection_cap");
    const held = Array.from({ length: MAX_CONNECTIONS }, () => open(port));
    await Promise.all(held.map((client) => client.connected));
    for (const client of held) client.socket.write("GET /health HTTP/1.1\r\n");
    await waitFor(
      () => new Promise((resolve) => server.getConnections((_, count) => resolve(count === MAX_CONNECTIONS))),
      5_000,
      "connections held",
    );
    // A client past the cap is told so (it cannot tell a silent close from a crash), whether it
    // sent its request yet or not; the connection is closed and the held ones are not served more.
    const extra = open(port);
    await extra.connected;
    extra.socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    const [head = "", body = ""] = (await extra.received).split("\r\n\r\n");
    const lines = head.split("\r\n");
    expect(lines[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(lines).toContain("Retry-After: 1");
    expect(lines).toContain("Connection: close");
    expect(lines).toContain("Content-Type: application/json; charset=utf-8");
    expect(JSON.parse(body)).toEqual({ error: "The server is at its connection limit; retry in 1 s." });
    const silent = open(port);
    expect((await silent.received).split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(refusals("connection_cap") - capRefusalsBefore).toBe(2);
    for (const client of held) client.socket.destroy();
    await waitFor(
      () => new Promise((resolve) => server.getConnections((_, count) => resolve(count === 0))),
      5_000,
      "connections released",
    );
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
  });

  test("error: a client over its rate gets a JSON 429 with Retry-After; other clients and /health are not limited", async () => {
    const base = `http://127.0.0.1:${portOf(limited)}`;
    const as = (client: string) => ({ headers: { "x-forwarded-for": client } });
    const url = `${base}/api/trade_volume_usd_7d`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(url, as("203.0.113.7"))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await fetch(url, as("203.0.113.7"));
    expect(refused.status).toBe(429);
    // A window of one burst at the sustained rate: 3 requests per 30 s.
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await refused.json()) as { error: string }).toEqual({
      error: `Too many requests: at most 0.1 per second per client; retry after ${retryAfter} s.`,
    });
    // GraphQL counts against the same client; another client and the probes are unaffected.
    const graphql = await fetch(
      `${base}/graphql?query=${encodeURIComponent("{ status { network } }")}`,
      as("203.0.113.7"),
    );
    expect(graphql.status).toBe(429);
    expect((await fetch(url, as("198.51.100.1"))).status).toBe(200);
    expect((await fetch(`${base}/health`, as("203.0.113.7"))).status).toBe(200);
  });

  test("error: what node would answer with an empty body gets a JSON one: no Host, an unmet Expect, a non-JSON GraphQL body", async () => {
    const port = portOf(capped);
    const ask = async (request: string) => {
      const client = open(port);
      await client.connected;
      client.socket.write(request);
      const text = await client.received;
      const [head = "", body = ""] = text.split("\r\n\r\n");
      return { status: head.split("\r\n")[0], head, body };
    };
    const noHost = await ask("GET /api/trade_volume_usd_7d HTTP/1.1\r\nConnection: close\r\n\r\n");
    expect(noHost.status).toBe("HTTP/1.1 400 Bad Request");
    expect(JSON.parse(noHost.body)).toEqual({ error: "An HTTP/1.1 request needs a Host header." });
    const expectation = await ask(
      "POST /graphql HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    expect(expectation.status).toBe("HTTP/1.1 417 Expectation Failed");
    expect(JSON.parse(expectation.body)).toEqual({ error: "Expect: teapot is not supported." });
    const query = JSON.stringify({ query: "{ status { network } }" });
    const plain = await ask(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${query.length}\r\nConnection: close\r\n\r\n${query}`,
    );
    expect(plain.status).toBe("HTTP/1.1 415 Unsupported Media Type");
    expect(JSON.parse(plain.body)).toEqual({
      errors: [
        {
          message: "POST /graphql takes a JSON body: Content-Type: application/json.",
          extensions: { code: "UNSUPPORTED_MEDIA_TYPE" },
        },
      ],
    });
  });

  test("behavior: one CORS policy: REST and GraphQL allow any origin, never with credentials", async () => {
    const base = `http://127.0.0.1:${portOf(capped)}`;
    const origin = { Origin: "https://app.example" };
    const rest = await fetch(`${base}/api/trade_volume_usd_7d`, { headers: origin });
    const graphql = await fetch(`${base}/graphql?query=${encodeURIComponent("{ status { network } }")}`, {
      headers: origin,
    });
    const preflight = await fetch(`${base}/graphql`, {
      method: "OPTIONS",
      headers: { ...origin, "Access-Control-Request-Method": "POST" },
    });
    for (const answer of [rest, graphql, preflight]) {
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    }
    expect(preflight.status).toBeLessThan(300);
  });

  test("error: POST /metrics is a 405 with Allow, like every other path", async () => {
    const answer = await fetch(`http://127.0.0.1:${portOf(capped)}/metrics`, { method: "POST" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await answer.json()).toEqual({ error: "Method POST is not allowed; use GET." });
  });
});
