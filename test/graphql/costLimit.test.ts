import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { GRAPHQL_LIMITS } from "../../src/graphql/graphqlLimits.js";
import { computeQueryCost } from "../../src/graphql/plugins/computeQueryCost.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { spyReader } from "../support/spyReader.js";
import { createMemoryLogger, gql } from "./support.js";

const schema = buildSchema();
const NODE =
  "cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } }";
const aliases = (first: string, count = 15) =>
  Array.from({ length: count }, (_, i) => `a${i}: swaps(first: ${first}) { edges { ${NODE} } }`).join(" ");

let fixture: Fixture;
let calls: string[];
let yoga: GraphqlServer;

// Records the reads behind resolvers (store pages, token lookups). The in-memory state probes of
// the market state key (networks, status, poolsBlock, ...) are not reads a refusal must avoid.
const RESOLVER_READS = new Set([
  "listTrades",
  "countTrades",
  "listDailyVolumes",
  "findTokenBySymbol",
  "getToken",
  "resolveTokenAddress",
]);

beforeAll(async () => {
  fixture = await createFixtureReader({ bulkTrades: 1_000 });
  calls = [];
  yoga = createGraphqlServer({
    reader: spyReader(fixture.reader, calls, RESOLVER_READS),
    logger: createMemoryLogger("silent").logger,
  });
});

afterAll(async () => {
  await fixture.close();
});

function cost(query: string, variables: Record<string, unknown> = {}): number | undefined {
  return computeQueryCost(schema, parse(query), variables);
}

describe("computeQueryCost", () => {
  test("args: a page size counts the same given literally, as a variable or by default", () => {
    const literal = cost(`{ swaps(first: 100) { edges { ${NODE} } } }`);
    expect(literal).toBeGreaterThan(10_000);
    expect(cost(`query Q($n: Int) { swaps(first: $n) { edges { ${NODE} } } }`, { n: 100 })).toBe(literal);
    // swaps' default page is 100; an omitted variable falls back to it too.
    expect(cost(`{ swaps { edges { ${NODE} } } }`)).toBe(literal);
    expect(cost(`query Q($n: Int) { swaps(first: $n) { edges { ${NODE} } } }`)).toBe(literal);
    expect(cost(`query Q($d: Int) { dailyVolumes(days: $d) { date } }`, { d: 31 })).toBe(
      cost("{ dailyVolumes(days: 31) { date } }"),
    );
  });

  test("args: liquidityEvents is multiplied by its page size like swaps, so a full page with every Pool field is refused", () => {
    const event =
      "cursor node { txHash logIndex blockNumber timestamp type sender owner amountUSD liquidity tickLower tickUpper pool { address } amount0 { amount amountDecimal token { address name symbol decimals } } amount1 { amount amountDecimal token { address name symbol decimals } } }";
    const one = cost(`{ liquidityEvents(first: 1) { edges { ${event} } } }`)!;
    const page = cost(`query Q($n: Int) { liquidityEvents(first: $n) { edges { ${event} } } }`, { n: 1000 })!;
    expect(page).toBe(1000 * one);
    // Its default page is 100, as swaps'.
    expect(cost(`{ liquidityEvents { edges { ${event} } } }`)).toBe(100 * one);
    expect(page).toBeLessThanOrEqual(GRAPHQL_LIMITS.maxCost);
    const everyPoolField = event.replace(
      "pool { address }",
      "pool { address dex token0 token1 feeBps kind liquidityUSD volumeUSD24h tradeCount24h reserve0 { amount token { symbol } } reserve1 { amount token { symbol } } }",
    );
    expect(cost(`{ liquidityEvents(first: 1000) { edges { ${everyPoolField} } } }`)).toBeGreaterThan(
      GRAPHQL_LIMITS.maxCost,
    );
  });

  test("args: market stats add their read cost per parent, multiplied by the page above them", () => {
    const cost = (query: string) => computeQueryCost(schema, parse(query), {})!;
    const plain = cost('{ token(symbolOrAddress: "CAKE") { symbol } }');
    const withStats = cost('{ token(symbolOrAddress: "CAKE") { symbol stats { asOf } } }');
    // A child of token: 1.5 x (2 + 200 + 1.5 x 1) more.
    expect(withStats - plain).toBe(1.5 * (2 + 200 + 1.5));
    const page = (first: number) => cost(`{ pools(first: ${first}) { edges { node { stats { asOf } } } } }`);
    expect(page(100)).toBe(100 * page(1));
    expect(page(100)).toBeLessThan(GRAPHQL_LIMITS.maxCost);
    // Scalars that read the store count their read too: Pool.lastTradePrice (one price look-up per
    // pool) is a scalar's 1 plus its 5, Pool.priceChangePercentage24h (two) 1 plus 10.
    const field = (name: string) => cost(`{ pools(first: 100) { edges { node { address ${name} } } } }`);
    expect(field("lastTradePrice") - field("")).toBe(100 * 1.5 * 1.5 * 1.5 * (1 + 5));
    expect(field("priceChangePercentage24h") - field("")).toBe(100 * 1.5 * 1.5 * 1.5 * (1 + 10));
  });

  test("behavior: fragments count where spread, skipped fields count nothing", () => {
    const inline = cost(`{ swaps(first: 50) { edges { ${NODE} } } }`);
    const spread = cost(
      `query { swaps(first: 50) { ...P } } fragment P on SwapConnection { edges { ${NODE} } }`,
    );
    expect(spread).toBe(inline);
    const twice = cost(
      `query { a: swaps(first: 50) { ...P } b: swaps(first: 50) { ...P } } fragment P on SwapConnection { edges { ${NODE} } }`,
    );
    expect(twice).toBe(2 * inline!);
    expect(
      cost(
        `query Q($s: Boolean!) { status { network } swaps(first: 50) @skip(if: $s) { edges { ${NODE} } } }`,
        { s: true },
      ),
    ).toBe(cost("{ status { network } }"));
  });

  test("behavior: variables that do not coerce leave the refusal to execution", () => {
    expect(cost("query Q($n: Int) { swaps(first: $n) { edges { cursor } } }", { n: "many" })).toBeUndefined();
  });
});

describe("cost limit", () => {
  test("error: 15 aliased pages of first: $n = 1000 are refused before any read", async () => {
    calls.length = 0;
    const started = performance.now();
    const response = await gql(yoga, `query Abuse($n: Int) { ${aliases("$n")} }`, { n: 1000 });
    const elapsedMs = performance.now() - started;
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(response.body.errors?.[0]?.message).toMatch(
      /^Query cost \d+ exceeds the limit of 250000: ask for fewer items/,
    );
    expect(calls).toEqual([]);
    // Reported, not asserted: the machine is shared.
    console.info(`cost refusal of the variable form: ${elapsedMs.toFixed(1)} ms`);
  });

  test("error: the literal form is refused the same way", async () => {
    calls.length = 0;
    const response = await gql(yoga, `{ ${aliases("1000")} }`);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(calls).toEqual([]);
  });

  test("error: two full pages are over the limit, as a variable too", async () => {
    calls.length = 0;
    const response = await gql(yoga, `query Q($n: Int) { ${aliases("$n", 2)} }`, { n: 1000 });
    expect(response.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(calls).toEqual([]);
  });

  test("behavior: one full page given as a variable passes and reads the store", async () => {
    calls.length = 0;
    const response = await gql(yoga, `query Q($n: Int) { ${aliases("$n", 1)} }`, { n: 1000 });
    expect(response.body.errors).toBeUndefined();
    const page = response.body.data?.a0 as { edges: unknown[] } | undefined;
    expect(page?.edges).toHaveLength(1000);
    expect(calls).toContain("listTrades");
    expect(cost(`query Q($n: Int) { ${aliases("$n", 1)} }`, { n: 1000 })).toBeLessThanOrEqual(
      GRAPHQL_LIMITS.maxCost,
    );
  });

  test("behavior: a refusal is logged at info without a stack", async () => {
    const { logger, records } = createMemoryLogger("debug");
    const server = createGraphqlServer({ reader: fixture.reader, logger });
    await gql(server, `query Abuse($n: Int) { ${aliases("$n")} }`, { n: 1000 });
    const refusals = records.filter((r) => r.msg === "graphql client error");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ level: 30, errors: [{ code: "COST_LIMIT" }] });
    expect(JSON.stringify(records)).not.toContain("stack");
  });
});
