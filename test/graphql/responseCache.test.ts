import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import { createTestServer } from "../http/support.js";
import { createFixtureReader, type Fixture, POOLS } from "../support/fixtureReader.js";
import { spyReader } from "../support/spyReader.js";
import { createMemoryLogger, type GqlResponse } from "./support.js";

const E18 = 10n ** 18n;
const QUOTE = `query Q($sell: String!) { quote(sellToken: $sell, buyToken: "USDT") { price blockNumber } }`;

let fixture: Fixture;
let calls: string[];
let app: FastifyInstance;

// Requests are counted by the reader methods they call (the state key itself reads only status,
// config and pools). They go through the HTTP edge, where answers are kept (the one store of
// market answers), in-process.

beforeEach(async () => {
  fixture = await createFixtureReader();
  calls = [];
  app = await createTestServer(spyReader(fixture.reader, calls), {
    logger: createMemoryLogger("silent").logger,
  });
});

afterEach(async () => {
  await app.close();
  await fixture.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> {
  const response = await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { "content-type": "application/json", accept: "application/json" },
    payload: JSON.stringify({ query, variables }),
  });
  return { status: response.statusCode, body: response.json() as GqlResponse["body"] };
}

const count = (method: string) => calls.filter((name) => name === method).length;

test("behavior: a repeated quote is answered from the kept answer, the same answer", async () => {
  const first = await gql(QUOTE, { sell: "WBNB" });
  const resolved = count("findTokenBySymbol");
  expect(resolved).toBeGreaterThan(0);
  const second = await gql(QUOTE, { sell: "WBNB" });
  expect(second.body).toEqual(first.body);
  expect(count("findTokenBySymbol")).toBe(resolved);
  // Other variables are another answer.
  await gql(QUOTE, { sell: "Cake" });
  expect(count("findTokenBySymbol")).toBeGreaterThan(resolved);
});

test("behavior: a change of the pool graph is seen by the very next request", async () => {
  const before = await gql(QUOTE, { sell: "WBNB" });
  const pool = fixture.reader.getPoolIndex("bsc").get(POOLS.WBNB_USDT)!;
  // USDT is token0: half the USDT in the pool halves WBNB's price.
  fixture.reader.getPoolIndex("bsc").update({ ...pool, reserve0: pool.reserve0 / 2n });
  const after = await gql(QUOTE, { sell: "WBNB" });
  expect(after.body.data?.quote).toEqual({
    price: formatDecimal(getAmountOut(E18, pool.reserve1, pool.reserve0 / 2n, 25), 18),
    blockNumber: "40000000",
  });
  expect(after.body).not.toEqual(before.body);
});

test("error: a network whose data turned too old answers NOT_READY, not its cached quote", async () => {
  expect((await gql(QUOTE, { sell: "WBNB" })).body.errors).toBeUndefined();
  fixture.reader.setStatus("bsc", { syncedAt: Date.now() - 601_000 });
  const stale = await gql(QUOTE, { sell: "WBNB" });
  expect(stale.status).toBe(503);
  expect(stale.body.errors?.[0]?.extensions?.code).toBe("NOT_READY");
});

test("behavior: tokens and pools with their 24-hour volumes are cached within one indexed state; the next indexed block is seen at once", async () => {
  const query = `{ tokens(first: 5) { edges { node { symbol volumeUSD24h priceUSD } } }
    pools(orderBy: VOLUME_24H, first: 5) { edges { node { address volumeUSD24h reserve0 { token { symbol } } } } } }`;
  const first = await gql(query);
  expect(first.body.errors).toBeUndefined();
  const listed = count("listKnownTokens");
  expect(listed).toBeGreaterThan(0);
  const second = await gql(query);
  expect(second.body).toEqual(first.body);
  expect(count("listKnownTokens")).toBe(listed);
  // A newly indexed block may hold trades: the next request reads again.
  fixture.reader.setStatus("bsc", { indexedBlock: 40_000_001n, headBlock: 40_000_001n });
  await gql(query);
  expect(count("listKnownTokens")).toBeGreaterThan(listed);
});

test("behavior: status, swaps, liquidity events and daily volumes are never cached", async () => {
  const status = "{ networkStatus { headBlock lag } }";
  expect((await gql(status)).body.data?.networkStatus).toEqual({ headBlock: "40000000", lag: "0" });
  fixture.reader.setStatus("bsc", { headBlock: 40_000_002n });
  expect((await gql(status)).body.data?.networkStatus).toEqual({ headBlock: "40000002", lag: "2" });
  // Also when asked together with a cacheable field.
  const mixed = `{ quote(sellToken: "WBNB", buyToken: "USDT") { price } status { lag } }`;
  await gql(mixed);
  fixture.reader.setStatus("bsc", { headBlock: 40_000_005n });
  expect((await gql(mixed)).body.data?.status).toEqual([{ lag: "5" }, { lag: "0" }]);

  for (const query of [
    "{ swaps { edges { cursor } } }",
    "{ dailyVolumes { date volumeUSD } }",
    "{ liquidityEvents { edges { cursor } } }",
  ]) {
    calls.length = 0;
    await gql(query);
    await gql(query);
    expect(count("listTrades") + count("listDailyVolumes") + count("listLiquidityEvents")).toBe(2);
  }
});

test("behavior: answers with errors are not cached", async () => {
  await gql(QUOTE, { sell: "NOPE" });
  const resolved = count("findTokenBySymbol");
  await gql(QUOTE, { sell: "NOPE" });
  expect(count("findTokenBySymbol")).toBe(2 * resolved);
});
