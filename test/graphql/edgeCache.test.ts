import { gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import { createTestServer } from "../http/support.js";
import { createFixtureReader, type Fixture, POOLS } from "../support/fixtureReader.js";
import { createMemoryLogger } from "./support.js";

const E18 = 10n ** 18n;
const QUOTE = `query Q($sell: String!) { quote(sellToken: $sell, buyToken: "USDT") { price blockNumber } }`;

let fixture: Fixture;
let app: FastifyInstance;
let records: Record<string, unknown>[];
// Requests that went through yoga (a kept answer does not): yoga logs each one it parses.
const throughYoga = () => records.filter((r) => String(r.msg).startsWith("Parsing request")).length;
const counted = (name: "cache_hits" | "cache_misses") =>
  readEventCounts(name).find((c) => c.labels.cache === "graphql_answer")?.value ?? 0;

beforeEach(async () => {
  fixture = await createFixtureReader();
  const memory = createMemoryLogger("debug");
  records = memory.records;
  app = await createTestServer(fixture.reader, { logger: memory.logger });
});

afterEach(async () => {
  await app.close();
  await fixture.close();
});

async function post(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    payload: JSON.stringify({ query, variables }),
  });
  return {
    status: response.statusCode,
    type: response.headers["content-type"],
    etag: response.headers.etag,
    text: response.body,
  };
}

describe("GraphQL answers kept at the edge", () => {
  test("behavior: a repeated quote is answered from kept bytes, without yoga, the same answer", async () => {
    const [hits, misses] = [counted("cache_hits"), counted("cache_misses")];
    const first = await post(QUOTE, { sell: "WBNB" });
    expect(first.status).toBe(200);
    expect(throughYoga()).toBe(1);
    const second = await post(QUOTE, { sell: "WBNB" });
    expect(second).toEqual(first);
    expect(throughYoga()).toBe(1);
    // One answer kept (the miss), one served from it (the hit).
    expect([counted("cache_hits") - hits, counted("cache_misses") - misses]).toEqual([1, 1]);
    // Other variables are another answer.
    await post(QUOTE, { sell: "CAKE" });
    expect(throughYoga()).toBe(2);
  });

  test("behavior: a kept answer has an ETag; If-None-Match with it gets a bodiless 304 without yoga", async () => {
    const first = await post(QUOTE, { sell: "WBNB" });
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    const revalidated = await post(QUOTE, { sell: "WBNB" }, { "if-none-match": first.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe("");
    expect(revalidated.etag).toBe(first.etag);
    expect(throughYoga()).toBe(1);
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

  test("behavior: a newly indexed block is a new state: the next request goes through yoga again", async () => {
    await post(QUOTE, { sell: "WBNB" });
    await post(QUOTE, { sell: "WBNB" });
    expect(throughYoga()).toBe(1);
    fixture.reader.setStatus("bsc", { indexedBlock: 40_000_001n, headBlock: 40_000_001n });
    await post(QUOTE, { sell: "WBNB" });
    expect(throughYoga()).toBe(2);
  });

  test("behavior: status, swaps and errors are never kept", async () => {
    const [hits, misses] = [counted("cache_hits"), counted("cache_misses")];
    for (let i = 0; i < 2; i++) {
      await post("{ networkStatus(network: bsc) { indexedBlock dataAgeSeconds } }");
      await post("{ swaps(network: bsc, first: 2) { edges { node { txHash } } } }");
      await post(QUOTE, { sell: "NOPE" });
    }
    expect(throughYoga()).toBe(6);
    expect([counted("cache_hits") - hits, counted("cache_misses") - misses]).toEqual([0, 0]);
  });

  test("behavior: market stats are never kept (their windows end at the request's second)", async () => {
    const [hits, misses] = [counted("cache_hits"), counted("cache_misses")];
    for (let i = 0; i < 2; i++) {
      const answer = JSON.parse(
        (
          await post(
            '{ token(network: bsc, symbolOrAddress: "WBNB") { symbol stats { asOf h24 { buys } } } }',
          )
        ).text,
      ) as { errors?: unknown[] };
      expect(answer.errors).toBeUndefined();
    }
    expect(throughYoga()).toBe(2);
    expect([counted("cache_hits") - hits, counted("cache_misses") - misses]).toEqual([0, 0]);
  });

  test("behavior: a client that takes gzip gets it: a large kept answer from its kept gzip (its own ETag), an answer yoga made as it streams", async () => {
    // Large enough to be worth gzip (1 KiB): every listed token with its name and address.
    const TOKENS =
      "{ tokens(network: bsc) { edges { node { symbol name address decimals priceUSD priceNative } } } }";
    const gzip = { "accept-encoding": "gzip" };
    const plain = await post(TOKENS);
    expect(plain.text.length).toBeGreaterThan(1024);
    const packed = async (query: string) => {
      const response = await app.inject({
        method: "POST",
        url: "/graphql",
        headers: { "content-type": "application/json", accept: "application/json", ...gzip },
        payload: JSON.stringify({ query, variables: {} }),
      });
      return {
        encoding: response.headers["content-encoding"],
        vary: response.headers.vary,
        etag: response.headers.etag,
        text: gunzipSync(response.rawPayload).toString("utf8"),
      };
    };
    const yogaBefore = throughYoga();
    const kept = await packed(TOKENS);
    expect(throughYoga()).toBe(yogaBefore);
    expect(kept).toEqual({
      encoding: "gzip",
      vary: "Accept-Encoding",
      etag: expect.any(String),
      text: plain.text,
    });
    expect(kept.etag).not.toBe(plain.etag);
    // Never kept (status): gzipped by the edge as yoga's answer streams, whatever its size.
    const status = await packed("{ status { network } }");
    expect([status.encoding, status.vary]).toEqual(["gzip", "accept-encoding"]);
    expect(JSON.parse(status.text)).toMatchObject({
      data: { status: [{ network: "bsc" }, { network: "eth" }] },
    });
    expect((await post("{ status { network } }")).text).toBe(status.text);
  });

  test("error: a network whose data turned too old answers NOT_READY, not its kept quote", async () => {
    expect(JSON.parse((await post(QUOTE, { sell: "WBNB" })).text).errors).toBeUndefined();
    fixture.reader.setStatus("bsc", { syncedAt: Date.now() - 601_000 });
    const stale = JSON.parse((await post(QUOTE, { sell: "WBNB" })).text) as { errors?: unknown[] };
    expect(stale.errors).toMatchObject([{ extensions: { code: "NOT_READY" } }]);
  });
});
