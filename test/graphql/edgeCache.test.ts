import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { readEventCounts } from "../../src/domain/countEvent.js";
import { buildSchema } from "../../src/graphql/buildSchema.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { formatDecimal } from "../../src/graphql/formatDecimal.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import { createHttpServer } from "../../src/rest/createHttpServer.js";
import { createFixtureReader, type Fixture, POOLS } from "../support/fixtureReader.js";
import { createMemoryLogger } from "./support.js";

const E18 = 10n ** 18n;
const QUOTE = `query Q($sell: String!) { quote(sellToken: $sell, buyToken: "USDT") { price blockNumber } }`;

let fixture: Fixture;
let graphql: GraphqlServer;
let server: Server;
let base: string;
let records: Record<string, unknown>[];
// Requests that went through yoga (an edge hit does not): yoga logs each one it parses.
const throughYoga = () => records.filter((r) => String(r.msg).startsWith("Parsing request")).length;

beforeEach(async () => {
  fixture = await createFixtureReader();
  const memory = createMemoryLogger("debug");
  const { logger } = memory;
  records = memory.records;
  const schema = buildSchema();
  graphql = createGraphqlServer({ reader: fixture.reader, schema, logger });
  server = await createHttpServer({ reader: fixture.reader, graphql, schema, logger });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fixture.close();
});

async function post(query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("GraphQL answers kept at the edge", () => {
  test("behavior: a repeated quote is answered from kept bytes, without yoga, the same answer", async () => {
    const counted = (name: "cache_hits" | "cache_misses") =>
      readEventCounts(name).find((c) => c.labels.cache === "graphql_answer")?.value ?? 0;
    const [hits, misses] = [counted("cache_hits"), counted("cache_misses")];
    const first = await post(QUOTE, { sell: "WBNB" });
    expect(first.status).toBe(200);
    expect(throughYoga()).toBe(1);
    const second = await post(QUOTE, { sell: "WBNB" });
    expect(second).toEqual(first);
    expect(throughYoga()).toBe(1);
    expect(graphql.edgeCache?.answers.size).toBe(1);
    expect([counted("cache_hits") - hits, counted("cache_misses") - misses]).toEqual([1, 1]);
    // Other variables are another answer.
    await post(QUOTE, { sell: "CAKE" });
    expect(throughYoga()).toBe(2);
  });

  test("behavior: a change of the pool graph is seen by the very next request", async () => {
    const before = await post(QUOTE, { sell: "WBNB" });
    const pool = fixture.reader.getPoolIndex("bsc").get(POOLS.WBNB_USDT)!;
    // USDT is token0: half the USDT in the pool halves WBNB's price.
    fixture.reader.getPoolIndex("bsc").update({ ...pool, reserve0: pool.reserve0 / 2n });
    const after = await post(QUOTE, { sell: "WBNB" });
    expect(throughYoga()).toBe(2);
    expect(JSON.parse(after.text)).toEqual({
      data: {
        quote: {
          price: formatDecimal(getAmountOut(E18, pool.reserve1, pool.reserve0 / 2n, 25), 18),
          blockNumber: "40000000",
        },
      },
    });
    expect(after.text).not.toBe(before.text);
  });

  test("behavior: status, swaps and errors are never kept", async () => {
    for (let i = 0; i < 2; i++) {
      await post("{ networkStatus(network: bsc) { indexedBlock dataAgeSeconds } }");
      await post("{ swaps(network: bsc, first: 2) { edges { node { txHash } } } }");
      await post(QUOTE, { sell: "NOPE" });
    }
    expect(throughYoga()).toBe(6);
    expect(graphql.edgeCache?.answers.size).toBe(0);
  });

  test("error: a network whose data turned too old answers NOT_READY, not its kept quote", async () => {
    expect(JSON.parse((await post(QUOTE, { sell: "WBNB" })).text).errors).toBeUndefined();
    fixture.reader.setStatus("bsc", { syncedAt: Date.now() - 601_000 });
    const stale = JSON.parse((await post(QUOTE, { sell: "WBNB" })).text) as { errors?: unknown[] };
    expect(stale.errors).toMatchObject([{ extensions: { code: "NOT_READY" } }]);
  });
});
