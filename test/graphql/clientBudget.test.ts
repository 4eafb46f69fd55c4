import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { ClientBudgetError } from "../../src/errors.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { computeQueryCost } from "../../src/graphql/plugins/computeQueryCost.js";
import {
  type ClientBudgetEvent,
  type ClientBudgetOptions,
  createClientBudget,
} from "../../src/graphql/plugins/createClientBudget.js";
import { SHARED_CLIENT } from "../../src/graphql/plugins/useClientBudget.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { createMemoryLogger, type GqlResponse } from "./support.js";

// Pass-through: counts how often operations are priced (the cost limit and the budget share one price).
vi.mock("../../src/graphql/plugins/computeQueryCost.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/graphql/plugins/computeQueryCost.js")>();
  return { ...original, computeQueryCost: vi.fn(original.computeQueryCost) };
});

const NODE =
  "cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } }";
// Costs 15,012.5 (computeQueryCost).
const PAGE = `{ swaps(first: 100) { edges { ${NODE} } } }`;

/** A budget on a hand-driven clock, recording its decisions. */
function budgetOf(options: Partial<ClientBudgetOptions> = {}) {
  const events: ClientBudgetEvent[] = [];
  const clock = { ms: 0 };
  const budget = createClientBudget({
    costPerSecond: 0,
    costBurst: 1,
    concurrency: 0,
    queueLength: 0,
    maxWaitMs: 0,
    now: () => clock.ms,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { budget, events, clock };
}

const typesOf = (events: ClientBudgetEvent[], client: string) =>
  events.filter((event) => event.client === client).map((event) => event.type);

describe("createClientBudget", () => {
  test("behavior: at most `concurrency` operations of a client run; the next wait in order, more are refused; other clients run", async () => {
    const { budget, events } = budgetOf({ concurrency: 2, queueLength: 2 });
    const first = await budget.admit("a", 1);
    const second = await budget.admit("a", 1);
    const order: string[] = [];
    const started = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const third = budget.admit("a", 1).then(started("third"));
    const fourth = budget.admit("a", 1).then(started("fourth"));
    await expect(budget.admit("a", 1)).rejects.toThrow(ClientBudgetError);
    const other = await budget.admit("b", 1);
    expect(typesOf(events, "a")).toEqual(["start", "start", "queue", "queue", "refuse"]);
    expect(typesOf(events, "b")).toEqual(["start"]);
    first();
    // Released twice: still one slot given back.
    first();
    (await third)();
    expect(order).toEqual(["third"]);
    second();
    (await fourth)();
    expect(order).toEqual(["third", "fourth"]);
    other();
    // Every slot is back: the client runs at once again.
    await budget.admit("a", 1);
    expect(typesOf(events, "a").at(-1)).toBe("start");
    expect(events.at(-1)).toMatchObject({ type: "start", waitedMs: 0 });
  });

  test("behavior: a slot released twice gives back one slot", async () => {
    const { budget, events } = budgetOf({ concurrency: 1, queueLength: 1 });
    const first = await budget.admit("a", 1);
    const second = budget.admit("a", 1);
    first();
    first();
    await second;
    // The second holds the only slot: the third waits rather than starting.
    void budget.admit("a", 1);
    expect(events.at(-1)).toMatchObject({ type: "queue", client: "a" });
  });

  test("error: over its cost budget a client is refused with the wait as Retry-After; another client is not", async () => {
    const { budget, events, clock } = budgetOf({ costPerSecond: 100, costBurst: 1_000, maxWaitMs: 5_000 });
    await budget.admit("a", 1_000);
    const refusal = await budget.admit("a", 700).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ClientBudgetError);
    expect((refusal as ClientBudgetError).retryAfterSeconds).toBe(7);
    expect(`${(refusal as Error).name}: ${(refusal as Error).message}`).toMatchInlineSnapshot(
      `"ClientBudgetError: Query budget exceeded: at most 100 cost units per second per client; retry after 7 s."`,
    );
    await budget.admit("b", 1_000);
    expect(events.filter((event) => event.client === "b")).toEqual([
      { type: "start", client: "b", cost: 1_000, waitedMs: 0 },
    ]);
    // Seven seconds later its bucket holds the 700.
    clock.ms = 7_000;
    await budget.admit("a", 700);
    expect(events.at(-1)).toEqual({ type: "start", client: "a", cost: 700, waitedMs: 0 });
  });

  test("behavior: a client alone refills at aloneCostPerSecond; once another client is present, at costPerSecond", async () => {
    const { budget, clock } = budgetOf({
      costPerSecond: 100,
      aloneCostPerSecond: 100_000,
      costBurst: 1_000,
      maxWaitMs: 5_000,
      presenceMs: 5_000,
      presenceCost: 500,
    });
    // Alone: a full bucket's worth every 10 ms, 100 times in a row, never waiting past 10 ms.
    for (let i = 0; i < 100; i++) {
      clock.ms += 10;
      await budget.admit("reader", 1_000);
    }
    // Another client's cheap operations (quotes) do not compete: the reader is still alone.
    for (let i = 0; i < 10; i++) await budget.admit("other", 1);
    clock.ms += 10;
    await budget.admit("reader", 1_000);
    // Another client arrives with a heavy operation: from now on the reader shares, and 1,000 units take 10 s.
    await budget.admit("other", 500);
    clock.ms += 10;
    await expect(budget.admit("reader", 1_000)).rejects.toMatchObject({
      reason: "cost",
      retryAfterSeconds: 10,
    });
    // The other client is still present 5 s after its last operation; past that the reader is alone again.
    clock.ms += 4_000;
    await expect(budget.admit("reader", 1_000)).rejects.toMatchObject({ reason: "cost" });
    clock.ms += 1_100;
    await budget.admit("reader", 1_000);
    // Two busy clients both get the shared rate: each sees the other.
    await budget.admit("other", 1_000);
    await expect(budget.admit("other", 1_000)).rejects.toMatchObject({ reason: "cost" });
  });

  test("behavior: a client that resends before its Retry-After has the refusal held for maxWaitMs first, in its queue", async () => {
    const { budget, events, clock } = budgetOf({
      costPerSecond: 100,
      costBurst: 1_000,
      maxWaitMs: 50,
      queueLength: 1,
    });
    await budget.admit("a", 1_000);
    // Refused at once: its next 1,000 units take 10 s.
    await expect(budget.admit("a", 1_000)).rejects.toMatchObject({ reason: "cost", retryAfterSeconds: 10 });
    // Resent at once: held, in the client's one queue place.
    let settled = false;
    const held = budget.admit("a", 1_000).finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await expect(budget.admit("a", 1)).rejects.toMatchObject({ reason: "queue" });
    await expect(held).rejects.toMatchObject({ reason: "cost", retryAfterSeconds: 10 });
    // Having waited out its Retry-After, the client is refused at once again.
    clock.ms = 10_000;
    await budget.admit("a", 1_000);
    await expect(budget.admit("a", 1_000)).rejects.toMatchObject({ reason: "cost" });
    const refusals = events.filter((event) => event.type === "refuse");
    expect(refusals.map((event) => [event.reason, event.heldMs])).toEqual([
      ["cost", 0],
      ["queue", 0],
      ["cost", 50],
      ["cost", 0],
    ]);
  });

  test("behavior: an operation within maxWaitMs waits for its budget, then starts", async () => {
    // 1,000 units a second: the second operation waits 5 ms of refill (a real timer).
    const { budget, events } = budgetOf({
      costPerSecond: 1_000,
      costBurst: 10,
      maxWaitMs: 1_000,
      queueLength: 1,
    });
    await budget.admit("a", 10);
    const waiting = budget.admit("a", 5);
    expect(events.at(-1)).toEqual({ type: "queue", client: "a", cost: 5, waitMs: 5 });
    // The queue holds one: a third operation meanwhile is refused.
    const refusal = await budget.admit("a", 1).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ reason: "queue", retryAfterSeconds: 1 });
    await waiting;
    expect(events.at(-1)).toMatchObject({ type: "start", client: "a", cost: 5 });
  });

  test("behavior: without a slot (subscriptions) an operation is charged but never counted as running", async () => {
    const { budget, events } = budgetOf({ concurrency: 1, costPerSecond: 100, costBurst: 1_000 });
    await budget.admit("a", 400, { holdSlot: false });
    await budget.admit("a", 400, { holdSlot: false });
    // The one slot is free, the bucket holds 200.
    await budget.admit("a", 200);
    expect(typesOf(events, "a")).toEqual(["start", "start", "start"]);
    await expect(budget.admit("a", 1, { holdSlot: false })).rejects.toMatchObject({ reason: "cost" });
  });

  test("behavior: state is kept for at most maxClients clients, least recently seen forgotten first", async () => {
    const { budget } = budgetOf({ costPerSecond: 1, costBurst: 100, maxClients: 2 });
    await budget.admit("a", 100);
    await budget.admit("b", 100);
    await expect(budget.admit("a", 100)).rejects.toThrow(ClientBudgetError);
    // "a" was seen last: "b" is forgotten when "c" comes, and starts again with a full bucket.
    await budget.admit("c", 1);
    await expect(budget.admit("b", 100)).resolves.toBeTypeOf("function");
    // "c" is remembered (99 units left, then none).
    await budget.admit("c", 99);
    await expect(budget.admit("c", 1)).rejects.toThrow(ClientBudgetError);
  });
});

describe("useClientBudget", () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixtureReader({ bulkTrades: 200 });
  });
  afterAll(async () => {
    await fixture.close();
  });

  function serverWith(options: Partial<ClientBudgetOptions>): {
    yoga: GraphqlServer;
    events: ClientBudgetEvent[];
  } {
    const events: ClientBudgetEvent[] = [];
    const yoga = createGraphqlServer({
      reader: fixture.reader,
      logger: createMemoryLogger("silent").logger,
      clientBudget: {
        costPerSecond: 0,
        costBurst: 1,
        concurrency: 0,
        queueLength: 0,
        maxWaitMs: 0,
        // A clock that stands still: no refill between requests, so every wait is exact.
        now: () => 0,
        onEvent: (event) => events.push(event),
        ...options,
      },
    });
    return { yoga, events };
  }

  async function post(
    yoga: GraphqlServer,
    query: string,
    clientKey?: string,
  ): Promise<GqlResponse & { headers: Headers }> {
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
      body: JSON.stringify({ query }),
    };
    const response = await (clientKey === undefined
      ? yoga.fetch("http://localhost/graphql", init)
      : yoga.fetch("http://localhost/graphql", init, { clientKey }));
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as GqlResponse["body"],
    };
  }

  test("error: a client over its budget gets a GraphQL 429 RATE_LIMITED with Retry-After; another client does not", async () => {
    // One page (15,012.5) fits the burst once; the second waits 10.03 s for 10,025 more units.
    const { yoga } = serverWith({
      costPerSecond: 1_000,
      costBurst: 20_000,
      maxWaitMs: 1_000,
      queueLength: 4,
    });
    expect((await post(yoga, PAGE, "10.0.0.1")).status).toBe(200);
    const refused = await post(yoga, PAGE, "10.0.0.1");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("11");
    expect(refused.headers.get("content-type")).toMatch(/json/);
    expect(refused.body).toEqual({
      errors: [
        {
          message: "Query budget exceeded: at most 1000 cost units per second per client; retry after 11 s.",
          extensions: { code: "RATE_LIMITED" },
        },
      ],
    });
    const other = await post(yoga, PAGE, "10.0.0.2");
    expect(other.status).toBe(200);
    expect((other.body.data?.swaps as { edges: unknown[] } | undefined)?.edges).toHaveLength(100);
  });

  test("args: without a client key every caller shares one budget", async () => {
    const { yoga, events } = serverWith({ costPerSecond: 1_000, costBurst: 20_000, queueLength: 4 });
    expect((await post(yoga, PAGE)).status).toBe(200);
    expect((await post(yoga, PAGE)).status).toBe(429);
    expect(new Set(events.map((event) => event.client))).toEqual(new Set([SHARED_CLIENT]));
  });

  test("behavior: the slot comes back when the operation ends in an error", async () => {
    // One slot and no queue: had the failed operation kept its slot, the next would be refused.
    const { yoga, events } = serverWith({ concurrency: 1, queueLength: 0 });
    const failed = await post(yoga, "{ swaps(first: 0) { edges { cursor } } }", "a");
    expect(failed.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    const next = await post(yoga, "{ swaps(first: 1) { edges { cursor } } }", "a");
    expect(next.status).toBe(200);
    expect(events.map((event) => event.type)).toEqual(["start", "start"]);
  });

  test("behavior: an operation is priced once for the cost limit and the budget; a refused one is never charged", async () => {
    const { yoga, events } = serverWith({ costPerSecond: 1_000, costBurst: 20_000, queueLength: 4 });
    const priced = vi.mocked(computeQueryCost);
    priced.mockClear();
    await post(yoga, PAGE, "a");
    expect(priced).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ type: "start", client: "a", cost: 15_012.5, waitedMs: 0 }]);
    // Over the cost limit: refused (400) before the budget sees it.
    const aliases = Array.from({ length: 15 }, (_, i) => `a${i}: swaps(first: 1000) { edges { ${NODE} } }`);
    const tooCostly = await post(yoga, `{ ${aliases.join(" ")} }`, "a");
    expect(tooCostly.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(events).toHaveLength(1);
  });

  test("behavior: a subscription is charged when it starts and holds no slot; over the budget it is refused", async () => {
    // Each operation below costs 3.5: the burst holds two.
    const { yoga, events } = serverWith({ costPerSecond: 1, costBurst: 7, concurrency: 1, queueLength: 0 });
    const subscribe = (clientKey: string) =>
      yoga.fetch(
        `http://localhost/graphql?query=${encodeURIComponent("subscription { networkStatus(network: bsc) { indexedBlock } }")}`,
        { headers: { accept: "text/event-stream" } },
        { clientKey },
      );
    const open = await subscribe("a");
    const reader = open.body!.getReader();
    let received = "";
    while (!received.includes("event: next")) {
      received += new TextDecoder().decode((await reader.read()).value);
    }
    expect(received).toContain('"indexedBlock"');
    // The subscription is open and holds no slot: the client's one slot runs a query at once.
    const query = await post(yoga, "{ networkStatus(network: bsc) { indexedBlock } }", "a");
    expect(query.status).toBe(200);
    expect(events.filter((event) => event.client === "a").map((event) => event.type)).toEqual([
      "start",
      "start",
    ]);
    await reader.cancel();
    // Its bucket is spent: the next subscription is refused.
    const refused = await subscribe("a");
    const text = await refused.text();
    expect(text).toContain('"RATE_LIMITED"');
    expect(events.at(-1)).toMatchObject({ type: "refuse", client: "a", reason: "cost" });
  });
});
