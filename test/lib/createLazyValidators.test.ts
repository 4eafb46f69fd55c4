import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestServer } from "../http/support.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";

// In production the server compiles each route's validator on its first request
// (createLazyValidators); every other test builds the server eagerly. Both answer the same.

let fixture: Fixture;

beforeAll(async () => {
  fixture = await createFixtureReader();
});

afterAll(async () => {
  await fixture?.close();
});

const REQUESTS = [
  "/api/quote?sellToken=BNB&buyToken=USDT",
  "/api/quote?sellToken=BNB",
  "/api/quote?sellToken=&buyToken=USDT",
  "/api/quote?sellToken=BNB&sellToken=ETH&buyToken=USDT",
  "/api/quote?sellToken=DUST&buyToken=USDT&foo=bar&SELLTOKEN=x",
  "/api/quote?sellToken=BNB&buyToken=USDT&network=BSC",
  "/api/swaps_24h?limit=0",
  "/api/swaps_24h?limit=1",
  "/api/swaps_24h?cursor=nonsense",
  "/api/swaps_export?network=bsc&from=10&to=soon",
  "/api/trade_volume_usd_7d?network=solana",
  "/dexscreener/bsc/events?fromBlock=abc&toBlock=5",
  "/dexscreener/bsc/events?fromBlock=5&toBlock=-1",
  "/dexscreener/bsc/asset?id=0x1234",
];

describe("createLazyValidators", () => {
  test("behavior: in production each route's first requests, valid and refused, answer as eagerly compiled validators do", async () => {
    const eager = await createTestServer(fixture.reader);
    const environment = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    const lazy = await createTestServer(fixture.reader).finally(() => {
      process.env.NODE_ENV = environment;
    });
    try {
      for (const url of REQUESTS) {
        const [expected, answer] = await Promise.all([eager.inject(url), lazy.inject(url)]);
        expect({ url, status: answer.statusCode, body: answer.body }).toEqual({
          url,
          status: expected.statusCode,
          body: expected.body,
        });
      }
    } finally {
      await lazy.close();
      await eager.close();
    }
  });
});
