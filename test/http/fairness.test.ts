import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { waitFor } from "../support/waitFor.js";
import { startServer, type TestServer } from "./support.js";

// Fairness between clients at the HTTP edge, on real sockets. Linux routes all of 127.0.0.0/8 to
// the loopback device: each source address below is a client of its own.
const MAX_CONNECTIONS = 16;
const DEADLINE_MS = 300;
const QUOTE = JSON.stringify({
  query: 'query { quote(network: bsc, sellToken: "WBNB", buyToken: "USDT") { price } }',
});
const SWAPS = "/api/swaps_24h?network=bsc";

let fixture: Fixture;
/** A small connection cap (share 0.25: 4 connections per address) and a short answer deadline. */
let capped: TestServer;
/** A small list budget: one whole list, then a 429. */
let budgeted: TestServer;
/** The defaults. */
let plain: TestServer;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  fixture = await createFixtureReader({ bulkTrades: 200 });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  capped = await startServer(fixture.reader, {
    listen: true,
    maxConnections: MAX_CONNECTIONS,
    answerDeadlineMs: DEADLINE_MS,
    logger: pino({ level: "debug" }, sink),
  });
  budgeted = await startServer(fixture.reader, {
    listen: true,
    listBudget: { bytesPerSecond: 1_000, burstBytes: 1_000 },
  });
  plain = await startServer(fixture.reader, { listen: true });
});

afterAll(async () => {
  await capped.close();
  await budgeted.close();
  await plain.close();
  await fixture.close();
});

const portOf = (server: TestServer) => (server.server.address() as { port: number }).port;

const refusals = (reason: string) =>
  readEventCounts("http_refusals").find((count) => count.labels.reason === reason)?.value ?? 0;

/** One request on its own connection from `localAddress`. */
function send(
  server: TestServer,
  path: string,
  init: { method?: string; body?: string; localAddress?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.baseUrl}${path}`,
      {
        method: init.method ?? "GET",
        agent: false,
        localAddress: init.localAddress ?? "127.0.0.1",
        headers: init.body === undefined ? {} : { "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${path} within 20 s`)));
    req.on("error", reject);
    req.end(init.body);
  });
}

/** A raw connection from `localAddress`: everything it receives until the server closes it. */
function open(port: number, localAddress: string) {
  const socket: Socket = connect({ port, host: "127.0.0.1", localAddress });
  let text = "";
  let closed = false;
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  socket.on("error", () => undefined);
  const ended = new Promise<void>((resolve) =>
    socket.on("close", () => {
      closed = true;
      resolve();
    }),
  );
  return {
    socket,
    connected: new Promise<void>((resolve) => socket.once("connect", () => resolve())),
    ended,
    text: () => text,
    closed: () => closed,
  };
}

const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

/** A slow upload: a GraphQL POST whose body is announced but only begun. */
const SLOW_UPLOAD =
  'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":';

describe("fair shares of the HTTP edge", () => {
  test("behavior: four addresses holding more slow uploads than the cap do not keep a fifth from quoting: every quote answers 200", async () => {
    const port = portOf(capped);
    const refused = () => refusals("connection_share") + refusals("connection_cap");
    const before = refused();
    const yieldedBefore = refusals("connection_yielded");
    // Each attacker keeps 8 uploads going (32 in all, twice the cap): a closed one is reopened.
    let stopping = false;
    const answered: string[] = [];
    const attackers = [2, 3, 4, 5].map((n) => `127.0.0.${n}`);
    const uploads: ReturnType<typeof open>[] = [];
    function upload(address: string): void {
      if (stopping) return;
      const client = open(port, address);
      uploads.push(client);
      client.socket.once("connect", () => client.socket.write(SLOW_UPLOAD));
      void client.ended.then(() => {
        answered.push(client.text());
        // An attacker's pace: reopen at once, but not in a tight loop of refusals.
        setTimeout(() => upload(address), 20);
      });
    }
    for (const address of attackers) for (let i = 0; i < 8; i++) upload(address);
    try {
      // Full: every slot held by an upload, and the attackers refused past their share.
      await waitFor(
        () =>
          new Promise((resolve) =>
            capped.server.getConnections((_, count) => resolve(count >= MAX_CONNECTIONS)),
          ),
        10_000,
        "the cap to be reached",
      );
      await waitFor(() => refused() - before >= 16, 10_000, "uploads refused past the share and the cap");
      // A fifth address quotes, 4 at a time (its own share), in 5 rounds.
      const statuses: number[] = [];
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () =>
            send(capped, "/graphql", { method: "POST", body: QUOTE, localAddress: "127.0.0.6" }),
          ),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
    } finally {
      stopping = true;
      for (const client of uploads) client.socket.destroy();
    }
    // Uploads gave way to the quotes; each was told so once, in JSON, and closed.
    expect(refusals("connection_yielded") - yieldedBefore).toBeGreaterThan(0);
    const given = answered.filter((text) => text.includes("connection limit"));
    expect(given.length).toBeGreaterThan(0);
    for (const text of given) {
      expect(statusLines(text)).toEqual(["HTTP/1.1 503"]);
      expect(text).toContain("Retry-After: 1");
      expect(text).toContain("Connection: close");
    }
    await waitFor(
      () => new Promise((resolve) => capped.server.getConnections((_, count) => resolve(count === 0))),
      10_000,
      "connections released",
    );
  });

  test("behavior: when the server is full, an idle connection of an address holding more gives way to a newcomer", async () => {
    const port = portOf(capped);
    const yieldedBefore = refusals("connection_yielded");
    // Four addresses fill the cap with connections that each had an answer and now sit idle, kept alive.
    const idle = [8, 9, 10, 11].flatMap((n) => Array.from({ length: 4 }, () => open(port, `127.0.0.${n}`)));
    await Promise.all(idle.map((client) => client.connected));
    for (const client of idle) client.socket.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    try {
      await waitFor(
        () => idle.every((client) => statusLines(client.text()).length === 1),
        10_000,
        "an answer on each connection",
      );
      const answer = await send(capped, "/health", { localAddress: "127.0.0.12" });
      expect(answer.status).toBe(200);
      expect(refusals("connection_yielded") - yieldedBefore).toBe(1);
      await waitFor(() => idle.some((client) => client.closed()), 10_000, "an idle connection closed");
    } finally {
      for (const client of idle) client.socket.destroy();
    }
    await waitFor(
      () => new Promise((resolve) => capped.server.getConnections((_, count) => resolve(count === 0))),
      10_000,
      "connections released",
    );
  });

  test("behavior: one address past its share gets the JSON 503 and is closed; another address is served", async () => {
    const port = portOf(capped);
    const held = Array.from({ length: 4 }, () => open(port, "127.0.0.7"));
    await Promise.all(held.map((client) => client.connected));
    for (const client of held) client.socket.write("GET /health HTTP/1.1\r\n");
    await waitFor(
      () => new Promise((resolve) => capped.server.getConnections((_, count) => resolve(count === 4))),
      10_000,
      "connections held",
    );
    const fifth = open(port, "127.0.0.7");
    await fifth.ended;
    const [head = "", body = ""] = fifth.text().split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(JSON.parse(body)).toEqual({ error: "The server is at its connection limit; retry in 1 s." });
    expect((await send(capped, "/health", { localAddress: "127.0.0.8" })).status).toBe(200);
    for (const client of held) client.socket.destroy();
  });

  test("behavior: a request answered by the deadline is answered once, and its connection closed", async () => {
    const client = open(portOf(capped), "127.0.0.9");
    await client.connected;
    client.socket.write(SLOW_UPLOAD);
    // Read the socket to its end: the deadline's 503 and the close, never node's 408 after it
    // (that comes at the request timeout, 30 s, on a connection left open).
    await Promise.race([client.ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    expect(client.closed()).toBe(true);
    expect(statusLines(client.text())).toEqual(["HTTP/1.1 503"]);
    expect(client.text()).toMatch(/^connection: close$/im);
  });

  test("behavior: a client hanging up mid-body is one info line without a stack, never an error", async () => {
    const before = refusals("client_closed");
    const seen = logLines.length;
    const client = open(portOf(capped), "127.0.0.10");
    await client.connected;
    const arrived = new Promise<void>((resolve) =>
      capped.server.once("request", (req) => req.once("data", () => resolve())),
    );
    client.socket.write(SLOW_UPLOAD);
    await arrived;
    client.socket.destroy();
    await waitFor(() => refusals("client_closed") > before, 10_000, "the hang-up to be counted");
    const lines = logLines.slice(seen);
    expect(lines.filter((line) => line.msg === "client closed the connection mid-request")).toEqual([
      expect.objectContaining({ level: 30, path: "/graphql" }),
    ]);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    for (const line of lines) expect(JSON.stringify(line)).not.toContain('"stack"');
  });

  test("behavior: past its list budget a client gets a JSON 429 with Retry-After; its quotes and other clients are served", async () => {
    const before = refusals("list_budget");
    const first = await send(budgeted, SWAPS, { localAddress: "127.0.0.11" });
    expect(first.status).toBe(200);
    expect(first.text.length).toBeGreaterThan(10_000);
    const second = await send(budgeted, SWAPS, { localAddress: "127.0.0.11" });
    expect(second.status).toBe(429);
    // The first list's bytes at 1,000 a second.
    expect(Number(second.headers["retry-after"])).toBeGreaterThanOrEqual(10);
    expect(second.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(second.text)).toEqual({
      error: `List budget exceeded: at most 1000 bytes of lists per second per client; retry after ${second.headers["retry-after"]} s.`,
    });
    expect(refusals("list_budget") - before).toBe(1);
    // Not a list: not charged, not refused. Another address has a budget of its own.
    const quote = await send(budgeted, "/graphql", {
      method: "POST",
      body: QUOTE,
      localAddress: "127.0.0.11",
    });
    expect(quote.status).toBe(200);
    expect((await send(budgeted, SWAPS, { localAddress: "127.0.0.12" })).status).toBe(200);
  });

  test("behavior: with the default list budget, a client reading the whole list 30 times in a row is never refused", async () => {
    const before = refusals("list_budget");
    for (let i = 0; i < 30; i++) {
      expect((await send(plain, SWAPS, { localAddress: "127.0.0.13" })).status).toBe(200);
    }
    expect(refusals("list_budget") - before).toBe(0);
  });
});
