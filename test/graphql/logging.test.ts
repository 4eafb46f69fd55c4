import { afterAll, beforeAll, expect, test } from "vitest";
import { createGraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { createMemoryLogger, gql } from "./support.js";

let fixture: Fixture;

beforeAll(async () => {
  fixture = await createFixtureReader({ notReady: ["eth"] });
});

afterAll(async () => {
  await fixture.close();
});

const QUOTE =
  'query Q($network: Network, $sell: String!) { quote(network: $network, sellToken: $sell, buyToken: "USDT") { price } }';

test.each([
  [
    "a bad variable",
    "query Q($from: Timestamp) { swaps(from: $from) { edges { cursor } } }",
    { from: "yesterday" },
    "BAD_REQUEST",
  ],
  ["an enum value that does not exist", QUOTE, { network: "solana", sell: "BNB" }, null],
  ["a validation error", "{ quot }", {}, "GRAPHQL_VALIDATION_FAILED"],
  ["a syntax error", "{ status { ", {}, "GRAPHQL_PARSE_FAILED"],
  ["an unknown token (resolver)", QUOTE, { sell: "NOPE" }, "BAD_REQUEST"],
  ["a network still indexing", QUOTE, { network: "eth", sell: "ETH" }, "NOT_READY"],
  [
    "a cost refusal",
    "query Q($n: Int) { swaps(first: $n) { edges { cursor } } }",
    { n: 1_000_000 },
    "COST_LIMIT",
  ],
])("behavior: %s is logged below error level, without a stack", async (_, query, variables, code) => {
  const { logger, records } = createMemoryLogger("debug");
  const server = createGraphqlServer({ reader: fixture.reader, logger });
  const response = await gql(server, query, variables);
  expect(response.body.errors?.length).toBeGreaterThan(0);
  const logged = records.filter((r) => r.msg === "graphql client error");
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ component: "graphql", errors: [{ code }] });
  expect(logged[0]!.level).toBe(code === "COST_LIMIT" ? 30 : 20);
  expect(records.filter((r) => (r.level as number) >= 40)).toEqual([]);
  expect(JSON.stringify(records)).not.toMatch(/stack|\bat \S+ \(/);
});

test("error: an unexpected error is logged at error level with its cause, once", async () => {
  const broken: MarketReader = Object.assign(Object.create(fixture.reader) as MarketReader, {
    listDailyVolumes: async () => {
      throw new Error("disk I/O error");
    },
  });
  const { logger, records } = createMemoryLogger("debug");
  const server = createGraphqlServer({ reader: broken, logger });
  const response = await gql(server, "{ dailyVolumes { date } }");
  expect(response.body.errors?.[0]?.extensions?.code).toBe("INTERNAL");
  const errors = records.filter((r) => r.level === 50);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject({ component: "graphql", err: { message: "disk I/O error" } });
  expect((errors[0]!.err as { stack: string }).stack).toContain("disk I/O error");
  expect(records.filter((r) => r.msg === "graphql client error")).toEqual([]);
});
