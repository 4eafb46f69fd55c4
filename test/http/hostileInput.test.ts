import { Agent, request as httpRequest, METHODS } from "node:http";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GRAPHQL_JSON_LIMITS } from "../../src/http/checkGraphqlRequest.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { waitFor } from "../support/waitFor.js";
import { startServer, type TestServer } from "./support.js";

// What an attacker throws at the edge, on the real server and real sockets: every request gets
// a JSON answer, quickly, and none leaves a socket waiting.
let fixture: Fixture;
let main: TestServer;
/** Its reader holds every daily-volume read until released: answers that cannot be made. */
let stuck: TestServer;
const held: (() => void)[] = [];
const logLines: Record<string, unknown>[] = [];
/** Every answer body this suite received: none may carry internals. */
const bodies: string[] = [];

const DEADLINE_MS = 300;
const QUOTE = "/api/quote?sellToken=WBNB&buyToken=USDT";

function holdingReader(reader: MarketReader): MarketReader {
  return new Proxy(reader, {
    get(target, property, receiver) {
      if (property === "listDailyVolumes") {
        return () => new Promise((resolve) => held.push(() => resolve([])));
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  fixture = await createFixtureReader();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  });
  // Hostile input at the socket level: real sockets.
  main = await startServer(fixture.reader, { logger: pino({ level: "debug" }, sink), listen: true });
  stuck = await startServer(holdingReader(fixture.reader), {
    listen: true,
    answerDeadlineMs: DEADLINE_MS,
    logger: pino({ level: "debug" }, sink),
  });
});

afterAll(async () => {
  for (const release of held) release();
  await main.close();
  await stuck.close();
  await fixture.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  ms: number;
}

/** One request on its own connection; resolves with the answer, or rejects after `timeoutMs`. */
function send(
  server: TestServer,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent } = {},
  timeoutMs = 5_000,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.baseUrl}${path}`,
      { method: init.method ?? "GET", headers: init.headers ?? {}, agent: init.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          bodies.push(text);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${path} within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(init.body);
  });
}

const postGraphql = (body: string | undefined, headers: Record<string, string> = {}) =>
  send(main, "/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    ...(body === undefined ? {} : { body }),
  });

/** The fastest of three tries: a request that hangs fails every try; a busy machine, rarely all. */
async function fastest(ask: () => Promise<Answer>): Promise<Answer> {
  const answers = [await ask(), await ask(), await ask()];
  return answers.reduce((best, answer) => (answer.ms < best.ms ? answer : best));
}

const nested = (depth: number) => `${"[".repeat(depth - 1)}1${"]".repeat(depth - 1)}`;

describe("hostile input at the edge", () => {
  test.each([
    [
      "{}",
      'A GraphQL request body must be a JSON object with a "query" string (or a persisted operation\'s extensions.persistedQuery.sha256Hash).',
    ],
    ["null", 'A GraphQL request body must be a JSON object with a "query" string; got null.'],
    ["123", 'A GraphQL request body must be a JSON object with a "query" string; got a number.'],
    ["true", 'A GraphQL request body must be a JSON object with a "query" string; got a boolean.'],
    ["[]", 'A GraphQL request body must be a JSON object with a "query" string; got an array.'],
    [
      '"{ status { network } }"',
      'A GraphQL request body must be a JSON object with a "query" string; got a string.',
    ],
    [
      '[{"query":"{ status { network } }"}]',
      'A GraphQL request body must be a JSON object with a "query" string; got an array.',
    ],
    [
      '{"query":null}',
      'A GraphQL request body must be a JSON object with a "query" string (or a persisted operation\'s extensions.persistedQuery.sha256Hash).',
    ],
    ['{"query":42}', 'GraphQL "query" must be a string; got a number.'],
    [
      '{"query":"{ status { network } }","variables":[]}',
      'GraphQL "variables" must be a JSON object; got an array.',
    ],
    [
      '{"query":"{ status { network } }","variables":"{}"}',
      'GraphQL "variables" must be a JSON object; got a string.',
    ],
    [
      '{"query":"{ status { network } }","operationName":{}}',
      'GraphQL "operationName" must be a string; got an object.',
    ],
    [
      '{"query":"{ status { network } }","extensions":7}',
      'GraphQL "extensions" must be a JSON object; got a number.',
    ],
    [
      '{"extensions":{"persistedQuery":{"sha256Hash":1}}}',
      'A GraphQL request body must be a JSON object with a "query" string (or a persisted operation\'s extensions.persistedQuery.sha256Hash).',
    ],
  ])("error: POST /graphql with the body %s is a JSON 400 within 50 ms", async (body, message) => {
    const answer = await fastest(() => postGraphql(body));
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(answer.text)).toEqual({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] });
    expect(answer.ms).toBeLessThan(50);
  });

  test("error: an empty body, or none, is a JSON 400 within 50 ms", async () => {
    const empty = await fastest(() => postGraphql(""));
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.text)).toEqual({
      errors: [
        { message: "The request body is empty; send a JSON object.", extensions: { code: "BAD_REQUEST" } },
      ],
    });
    expect(empty.ms).toBeLessThan(50);
    // No Content-Type and no body: Fastify parses nothing, and yoga would read the stream.
    const none = await fastest(() => send(main, "/graphql", { method: "POST" }));
    expect(none.status).toBe(400);
    expect(JSON.parse(none.text)).toEqual({
      errors: [
        {
          message: 'A GraphQL request body must be a JSON object with a "query" string; got no body.',
          extensions: { code: "BAD_REQUEST" },
        },
      ],
    });
    expect(none.ms).toBeLessThan(50);
  });

  test("behavior: a flood of 8,300 bodies yoga cannot use is answered, holds no connection, and another client's quotes answer meanwhile", async () => {
    const flood = new Agent({ keepAlive: false, maxSockets: 200 });
    const shapes = ["{}", "null", "123", "true", "[]"];
    const statuses = new Map<number, number>();
    const floodDone = Promise.all(
      Array.from({ length: 8_300 }, (_, i) =>
        send(
          main,
          "/graphql",
          {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: shapes[i % shapes.length]!,
            agent: flood,
            // Answered is the point: on a loaded machine the queue of 8,300 may take a while.
          },
          60_000,
        ).then((answer) => statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)),
      ),
    );
    const quotes: number[] = [];
    for (let i = 0; i < 20; i++) quotes.push((await send(main, QUOTE, {}, 60_000)).status);
    await floodDone;
    flood.destroy();
    expect(quotes).toEqual(Array(20).fill(200));
    expect([...statuses]).toEqual([[400, 8_300]]);
    await waitFor(
      () => new Promise((resolve) => main.server.getConnections((_, count) => resolve(count === 0))),
      10_000,
      "every flood connection closed",
    );
  }, 120_000);

  test("error: variables nested 45,000 deep, or too deep or too many anywhere, are a JSON 400 before the engine", async () => {
    const query = "query ($network: Network) { dailyVolumes(network: $network) { date } }";
    const deep = await postGraphql(
      `{"query":${JSON.stringify(query)},"variables":{"network":${nested(45_000)}}}`,
    );
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.text)).toEqual({
      errors: [
        {
          message: `GraphQL "variables" are nested more than ${GRAPHQL_JSON_LIMITS.maxDepth} levels deep.`,
          extensions: { code: "BAD_REQUEST" },
        },
      ],
    });
    // At the limit the variables reach the engine, whose coercion refuses a list for an enum.
    const atLimit = await postGraphql(
      JSON.stringify({ query, variables: { network: JSON.parse(nested(GRAPHQL_JSON_LIMITS.maxDepth - 1)) } }),
    );
    expect(atLimit.status).toBe(400);
    expect(atLimit.text).toContain('Variable \\"$network\\" got invalid value');
    const many = await postGraphql(
      JSON.stringify({ query, variables: { list: Array(GRAPHQL_JSON_LIMITS.maxValues).fill(0) } }),
    );
    expect(many.status).toBe(400);
    expect(JSON.parse(many.text).errors[0].message).toBe(
      `GraphQL "variables" hold more than ${GRAPHQL_JSON_LIMITS.maxValues} values.`,
    );
    const deepExtensions = await postGraphql(
      JSON.stringify({ query, extensions: { x: JSON.parse(nested(20)) } }),
    );
    expect(deepExtensions.status).toBe(400);
    // A GET carries its variables in the query string: the same bounds.
    const params = new URLSearchParams({ query, variables: `{"network":${nested(1_000)}}` });
    const get = await send(main, `/graphql?${params}`);
    expect(get.status).toBe(400);
    expect(JSON.parse(get.text).errors[0].message).toBe(
      `GraphQL "variables" are nested more than ${GRAPHQL_JSON_LIMITS.maxDepth} levels deep.`,
    );
    const notJson = await send(main, `/graphql?${new URLSearchParams({ query, variables: "{oops" })}`);
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).errors[0].message).toBe('GraphQL "variables" is not valid JSON.');
    // What passes the bounds is served as before.
    const ok = await postGraphql(JSON.stringify({ query, variables: { network: "bsc" } }));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).data.dailyVolumes).toHaveLength(7);
  });

  test("error: every method node parses is a 405 with Allow on a known path, REST and GraphQL alike", async () => {
    const others = METHODS.filter((method) => !["GET", "HEAD", "OPTIONS", "CONNECT"].includes(method));
    expect(others).toEqual(
      expect.arrayContaining(["TRACE", "LINK", "PROPFIND", "MKCOL", "LOCK", "SEARCH", "PURGE"]),
    );
    for (const method of others) {
      const rest = await send(main, QUOTE, { method });
      expect({ method, status: rest.status, allow: rest.headers.allow }).toEqual({
        method,
        status: 405,
        allow: "GET, HEAD, OPTIONS",
      });
      expect(JSON.parse(rest.text)).toEqual({ error: `Method ${method} is not allowed; use GET.` });
      if (method === "POST") continue;
      const graphql = await send(main, "/graphql", { method });
      expect({ method, status: graphql.status, allow: graphql.headers.allow }).toEqual({
        method,
        status: 405,
        allow: "GET, POST, OPTIONS",
      });
    }
    // An unknown path stays a 404 whatever the method.
    const unknown = await send(main, "/nowhere", { method: "PROPFIND" });
    expect(unknown.status).toBe(404);
  });

  test("error: CONNECT is answered at once with a JSON 405 and the connection closed", async () => {
    const { port } = main.server.address() as { port: number };
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
      );
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
      });
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
      socket.setTimeout(5_000, () => socket.destroy(new Error("CONNECT not answered")));
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    const [head = "", body = ""] = text.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 405 Method Not Allowed");
    expect(head).toContain("Allow: GET, HEAD, OPTIONS");
    expect(JSON.parse(body)).toEqual({ error: "Method CONNECT is not allowed: this server is not a proxy." });
  });

  test("error: a request with no answer begun by the deadline gets a JSON 503 with Retry-After, REST and GraphQL", async () => {
    const counted = () =>
      readEventCounts("http_refusals").find((count) => count.labels.reason === "answer_deadline")?.value ?? 0;
    const before = counted();
    const rest = await send(stuck, "/api/trade_volume_usd_7d?network=bsc");
    expect(rest.status).toBe(503);
    expect(rest.headers["retry-after"]).toBe("1");
    expect(rest.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(rest.text)).toEqual({
      error: "The server could not answer within 300 ms; retry in a moment.",
    });
    expect(rest.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
    const graphql = await send(
      stuck,
      `/graphql?${new URLSearchParams({ query: "{ dailyVolumes { date } }" })}`,
    );
    expect(graphql.status).toBe(503);
    expect(JSON.parse(graphql.text)).toEqual({
      errors: [
        {
          message: "The server could not answer within 300 ms; retry in a moment.",
          extensions: { code: "TIMEOUT" },
        },
      ],
    });
    // Answers that can be made are made on the same server, and the held work left nothing behind.
    expect((await send(stuck, QUOTE)).status).toBe(200);
    expect(held.length).toBeGreaterThanOrEqual(2);
    expect(counted() - before).toBe(2);
  });

  test("behavior: of requests in flight together, exactly those unanswered by the deadline get the 503, each at its own deadline", async () => {
    const counted = () =>
      readEventCounts("http_refusals").find((count) => count.labels.reason === "answer_deadline")?.value ?? 0;
    const before = counted();
    const volumes = "/api/trade_volume_usd_7d?network=bsc";
    // Held answers among answered ones, sent in an order that puts them first, in the middle and last.
    const paths = [volumes, ...Array(10).fill(QUOTE), volumes, ...Array(10).fill(QUOTE), volumes];
    const answers = await Promise.all(paths.map((path) => send(stuck, path)));
    for (const [i, answer] of answers.entries()) {
      if (paths[i] === volumes) {
        expect(answer.status, `request ${i}`).toBe(503);
        expect(answer.ms, `request ${i}`).toBeGreaterThanOrEqual(DEADLINE_MS - 5);
      } else {
        expect(answer.status, `request ${i}`).toBe(200);
      }
    }
    expect(counted() - before).toBe(3);
    // After they all left, a late one is still answered by its own deadline.
    const late = await send(stuck, volumes);
    expect([late.status, late.ms >= DEADLINE_MS - 5]).toEqual([503, true]);
    expect(counted() - before).toBe(4);
  });

  test("error: a body announced but never sent is answered by the deadline, not held", async () => {
    const { port } = stuck.server.address() as { port: number };
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write(
          'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":',
        ),
      );
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
        if (received.includes("\r\n\r\n") && received.endsWith("}")) resolve(received);
      });
      socket.on("close", () => resolve(received));
      socket.on("error", reject);
      socket.setTimeout(10_000, () => socket.destroy(new Error("no answer")));
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    const [head = "", body = ""] = text.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 503 Service Unavailable");
    expect(JSON.parse(body)).toEqual({
      errors: [
        {
          message: "The server could not answer within 300 ms; retry in a moment.",
          extensions: { code: "TIMEOUT" },
        },
      ],
    });
  });

  test("behavior: no answer of this suite carries an internal error's detail or a stack", () => {
    expect(bodies.length).toBeGreaterThan(8_300);
    for (const body of bodies) {
      expect(body).not.toContain("originalError");
      expect(body).not.toMatch(/\n\s+at /);
      expect(body).not.toContain("RangeError");
    }
  });

  test("behavior: refusals are logged in one line without a stack at debug level; the missed deadline warns", async () => {
    // An expected 503: a network this server does not index.
    expect((await send(main, "/api/trade_volume_usd_7d?network=polygon")).status).toBe(503);
    expect(logLines.some((line) => line.code === "NOT_READY" && line.msg === "request refused")).toBe(true);
    const refusals = logLines.filter(
      (line) => line.msg === "request refused" || line.msg === "graphql client error",
    );
    expect(refusals.length).toBeGreaterThan(0);
    for (const line of logLines) expect(JSON.stringify(line)).not.toContain('"stack"');
    const late = logLines.filter((line) => line.msg === "request not answered in time");
    expect(late.length).toBeGreaterThanOrEqual(2);
    expect(late[0]).toMatchObject({ level: 40, code: "TIMEOUT", status: 503 });
  });
});
