import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import type { ClientBudgetEvent, ClientBudgetOptions } from "../../src/graphql/plugins/createClientBudget.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { waitFor } from "../support/waitFor.js";
import { startServer, type TestServer } from "./support.js";

// The real path: sockets into the Fastify edge, yoga and its per-client budget. Linux routes
// all of 127.0.0.0/8 to the loopback device, so each source address below is its own client
// (request.ip, the rate limit's key).
const NODE =
  "cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } }";
// The heaviest operation the cost limit admits: 15 pages of 111 swaps with every field (cost 249,958).
const HEAVY = `{ ${Array.from({ length: 15 }, (_, i) => `a${i}: swaps(first: 111) { edges { ${NODE} } }`).join(" ")} }`;
const CHEAP = "{ networkStatus(network: bsc) { indexedBlock } }";
const SMALL_PAGE = "{ swaps(first: 5) { edges { cursor } } }";

/** Holds every store read of swaps while closed; counts the reads that began. */
function createGate() {
  let opened: Promise<void> = Promise.resolve();
  let open = () => {};
  return {
    reads: 0,
    close() {
      opened = new Promise((resolve) => {
        open = resolve;
      });
    },
    open: () => open(),
    passed: () => opened,
  };
}

let fixture: Fixture;
const gate = createGate();
let reader: MarketReader;

beforeAll(async () => {
  // 1,000 swaps in the last 24 hours: every alias of HEAVY gets its 111.
  fixture = await createFixtureReader({ bulkTrades: 1_000 });
  // The real reader, its swap reads held at the gate (a read the test can keep in flight).
  reader = new Proxy(fixture.reader, {
    get(target, property, receiver) {
      if (property !== "listTrades") return Reflect.get(target, property, receiver);
      return async (...args: Parameters<MarketReader["listTrades"]>) => {
        gate.reads++;
        await gate.passed();
        return target.listTrades(...args);
      };
    },
  });
});

afterAll(async () => {
  gate.open();
  await fixture.close();
});

async function serve(budget: Omit<ClientBudgetOptions, "onEvent">) {
  const events: ClientBudgetEvent[] = [];
  const api: TestServer = await startServer(reader, {
    // Clients are told apart by their loopback address: a socket each.
    listen: true,
    clientBudget: { ...budget, onEvent: (event) => events.push(event) },
  });
  onTestFinished(async () => {
    gate.open();
    await api.close();
  });
  const of = (client: string) => events.filter((event) => event.client === client);
  return { api, events, of };
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { data?: Record<string, { edges: unknown[] }>; errors?: { extensions?: { code?: string } }[] };
}

/** POST /graphql from a given local address, on a connection of its own. */
function post(api: TestServer, query: string, from: string): Promise<Answer> {
  const url = new URL(`${api.baseUrl}/graphql`);
  const body = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const retryAfter = res.headers["retry-after"];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Answer["body"],
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("GraphQL client budget over HTTP", () => {
  test("behavior: a client sending the heaviest query back to back is queued, then refused with Retry-After; another client is never queued nor refused", async () => {
    // Two heavy queries' worth of burst, a refill too slow to matter while the test runs (1,000
    // units a second against 249,958 a query), one operation at a time per client.
    const { api, of } = await serve({
      costPerSecond: 1_000,
      costBurst: 500_000,
      concurrency: 1,
      queueLength: 4,
      maxWaitMs: 10_000,
    });
    const heavy = "127.0.0.2";
    const other = "127.0.0.3";
    gate.close();
    const sent = [post(api, HEAVY, heavy), post(api, HEAVY, heavy), post(api, HEAVY, heavy)];
    // One runs (held in its store reads), one waits for the client's slot, the third would wait
    // some 250 s for the client's budget: refused at once.
    await waitFor(() => of(heavy).length === 3, 30_000, "three decisions about the heavy client");
    expect(
      of(heavy)
        .map((event) => event.type)
        .sort(),
    ).toEqual(["queue", "refuse", "start"]);
    const refused = await Promise.race(sent);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(200);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(250);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    // Meanwhile the other client is answered, each operation at once.
    for (let i = 0; i < 5; i++) expect((await post(api, CHEAP, other)).status).toBe(200);
    expect(of(other)).toHaveLength(5);
    expect(of(other).every((event) => event.type === "start" && event.waitedMs === 0)).toBe(true);
    gate.open();
    const answers = await Promise.all(sent);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 429]);
    for (const answer of answers.filter((each) => each.status === 200)) {
      expect(Object.values(answer.body.data ?? {}).map((page) => page.edges.length)).toEqual(
        Array(15).fill(111),
      );
    }
    // The queued one ran once the first gave its slot back.
    expect(of(heavy).map((event) => event.type)).toContain("start");
    expect(of(heavy).filter((event) => event.type === "start")).toHaveLength(2);
  });

  test("behavior: at most `concurrency` operations of one client run at once; the next waits, another client's runs meanwhile", async () => {
    const { api, of } = await serve({
      costPerSecond: 0,
      costBurst: 1,
      concurrency: 2,
      queueLength: 4,
      maxWaitMs: 0,
    });
    const busy = "127.0.0.4";
    const other = "127.0.0.5";
    gate.close();
    gate.reads = 0;
    const sent = [post(api, SMALL_PAGE, busy), post(api, SMALL_PAGE, busy), post(api, SMALL_PAGE, busy)];
    await waitFor(() => gate.reads === 2 && of(busy).length === 3, 30_000, "two reads held, one queued");
    expect(
      of(busy)
        .map((event) => event.type)
        .sort(),
    ).toEqual(["queue", "start", "start"]);
    // The other client's operation starts while the first client is at its bound.
    const another = post(api, SMALL_PAGE, other);
    await waitFor(() => gate.reads === 3, 30_000, "the other client's read");
    expect(of(other)).toEqual([{ type: "start", client: other, cost: expect.any(Number), waitedMs: 0 }]);
    // Still only two of the first client's operations have reached the store.
    expect(of(busy).filter((event) => event.type === "start")).toHaveLength(2);
    gate.open();
    const answers = await Promise.all([...sent, another]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.body.data?.swaps?.edges.length)).toEqual([5, 5, 5, 5]);
    expect(gate.reads).toBe(4);
    expect(of(busy).filter((event) => event.type === "start")).toHaveLength(3);
  });
});
