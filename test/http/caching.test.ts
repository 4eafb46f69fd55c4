import { gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import type { NetworkName, Trade } from "../../src/domain/types.js";
import { matchesIfNoneMatch } from "../../src/http/matchesIfNoneMatch.js";
import { buildCachedJson, sendCachedJson } from "../../src/http/sendCachedJson.js";
import { createLruCache } from "../../src/lib/createLruCache.js";
import type { MarketReader } from "../../src/views/types.js";
import {
  BSC,
  BSC_POOLS,
  createFixtureReader,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";
import { assertSpecShapeError, assertSpecShapeQuote } from "../support/specShape.js";
import { startServer, type TestServer } from "./support.js";

const QUOTE = "/api/quote?sellToken=BNB&buyToken=USDT";
const ETAG = /^"bsc-40000000-[A-Za-z0-9_-]{16}"$/;

let fixture: Fixture;
let api: TestServer;

beforeAll(async () => {
  fixture = await createFixtureReader();
  api = await startServer(fixture.reader);
});

afterAll(async () => {
  await api.close();
  await fixture.close();
});

/**
 * The fixture's reader with a one-minute poll interval: kept answers then outlive every test, so
 * what a test sees after changing the pools is the cache, not the clock. The rest is the real reader.
 */
async function slowPollingServer(): Promise<{ fixture: Fixture; server: TestServer }> {
  const own = await createFixtureReader();
  const reader: MarketReader = Object.assign(Object.create(own.reader) as MarketReader, {
    getConfig: (network: NetworkName) => ({ ...own.reader.getConfig(network), pollIntervalMs: 60_000 }),
  });
  const server = await startServer(reader);
  onTestFinished(async () => {
    await server.close();
    await own.close();
  });
  return { fixture: own, server };
}

describe("GET /api/quote", () => {
  test("behavior: a quote has an ETag and Cache-Control of about one poll; If-None-Match gets a bodiless 304", async () => {
    const first = await api.call(QUOTE);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(ETAG);
    // The fixture polls every second.
    expect(first.headers.get("cache-control")).toBe("public, max-age=1, stale-while-revalidate=3");

    const again = await api.call(QUOTE);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(etag);

    for (const sent of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const revalidated = await api.call(QUOTE, { headers: { "if-none-match": sent } });
      expect(revalidated.status, sent).toBe(304);
      expect(revalidated.text, sent).toBe("");
      expect(revalidated.headers.get("etag")).toBe(etag);
      expect(revalidated.headers.get("cache-control")).toBe("public, max-age=1, stale-while-revalidate=3");
      expect(revalidated.headers.get("x-indexed-block")).toBe("40000000");
      expect(revalidated.headers.get("x-data-age")).toMatch(/^\d+$/);
    }
    const head = await api.call(QUOTE, { method: "HEAD", headers: { "if-none-match": etag } });
    expect(head.status).toBe(304);
  });

  test("behavior: another parameter is another answer with another ETag; case does not matter", async () => {
    const bnb = await api.call(QUOTE);
    const etag = bnb.headers.get("etag")!;
    const cake = await api.call("/api/quote?sellToken=CAKE&buyToken=USDT", {
      headers: { "if-none-match": etag },
    });
    expect(cake.status).toBe(200);
    assertSpecShapeQuote(cake.body, { network: "bsc" });
    expect(cake.headers.get("etag")).toMatch(ETAG);
    expect(cake.headers.get("etag")).not.toBe(etag);

    // Same bytes, same tag: the symbol's case and an address's case resolve alike.
    const lower = await api.call("/api/quote?sellToken=bnb&buyToken=usdt", {
      headers: { "if-none-match": etag },
    });
    expect(lower.status).toBe(304);
    const upper = `0x${BSC.USDT.slice(2).toUpperCase()}`;
    const address = await api.call(`/api/quote?sellToken=BNB&buyToken=${upper}`);
    expect(address.text).toBe(bnb.text);
    expect(address.headers.get("etag")).toBe(etag);
  });

  test('error: "0X" with 40 hex digits stays a 400 after the same address in "0x" was answered', async () => {
    const ok = await api.call(`/api/quote?sellToken=BNB&buyToken=${BSC.USDT}`);
    expect(ok.status).toBe(200);
    const bad = await api.call(`/api/quote?sellToken=BNB&buyToken=0X${BSC.USDT.slice(2)}`);
    expect(bad.status).toBe(400);
  });

  test("behavior: a kept quote lasts while the block does; a new indexed block gives the new price, a new ETag and 200", async () => {
    const { fixture: own, server } = await slowPollingServer();
    const before = await server.call(QUOTE);
    const etag = before.headers.get("etag")!;
    expect(before.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=180");

    // The pools move (BNB doubles) before the status' block does, as between an indexer's
    // commit and its next poll: the answer of block 40000000 is still the kept one.
    const [wbnbUsdt] = BSC_POOLS;
    const doubled = { ...wbnbUsdt!, reserve0: wbnbUsdt!.reserve0 * 2n, reserve1: wbnbUsdt!.reserve1 * 2n };
    const usdtIsToken0 = wbnbUsdt!.token0 === BSC.USDT;
    own.reader
      .getPoolIndex("bsc")
      .update(
        usdtIsToken0
          ? { ...doubled, reserve0: doubled.reserve0 * 2n }
          : { ...doubled, reserve1: doubled.reserve1 * 2n },
      );
    const kept = await server.call(QUOTE, { headers: { "if-none-match": etag } });
    expect(kept.status).toBe(304);

    own.reader.setStatus("bsc", { indexedBlock: 40_000_001n, headBlock: 40_000_001n, syncedAt: Date.now() });
    const after = await server.call(QUOTE, { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-indexed-block")).toBe("40000001");
    expect(after.headers.get("etag")).toMatch(/^"bsc-40000001-[A-Za-z0-9_-]{16}"$/);
    const price = (body: unknown) => Number((body as { result: { price: string } }).result.price);
    expect(price(after.body) / price(before.body)).toBeGreaterThan(1.9);
  });

  test("error: a kept answer is not served once the network stops serving: 503 with no-store", async () => {
    const { fixture: own, server } = await slowPollingServer();
    expect((await server.call(QUOTE)).status).toBe(200);
    // Data beyond the 600-second freshness limit, then a halt.
    own.reader.setStatus("bsc", { syncedAt: Date.now() - 700_000 });
    const stale = await server.call(QUOTE);
    expect(stale.status).toBe(503);
    expect(stale.headers.get("cache-control")).toBe("no-store");
    expect(stale.headers.get("etag")).toBeNull();
    own.reader.setStatus("bsc", { syncedAt: Date.now(), halted: true });
    expect((await server.call(QUOTE)).status).toBe(503);
    own.reader.setStatus("bsc", { halted: false });
    expect((await server.call(QUOTE)).status).toBe(200);
  });

  test("error: errors carry Cache-Control: no-store and no ETag (400, 404, 405, 422, 503)", async () => {
    const paths: [string, number, string?][] = [
      ["/api/quote?sellToken=NOPE&buyToken=USDT", 400],
      ["/api/nope", 404],
      [QUOTE, 405, "POST"],
      ["/api/quote?sellToken=LONELY&buyToken=USDT", 422],
      ["/api/quote?sellToken=POL&buyToken=USDC&network=polygon", 503],
      ["/api/trade_volume_usd_7d?network=polygon", 503],
    ];
    for (const [path, status, method] of paths) {
      // Twice: an error is never kept and served as a success later.
      for (let i = 0; i < 2; i++) {
        const answer = await api.call(path, method === undefined ? {} : { method });
        expect(answer.status, path).toBe(status);
        assertSpecShapeError(answer.body);
        expect(answer.headers.get("cache-control"), path).toBe("no-store");
        expect(answer.headers.get("etag"), path).toBeNull();
      }
    }
  });
});

describe("GET /api/trade_volume_usd_7d", () => {
  test("behavior: ETag and 304 within a block; a committed trade gives new sums and a new ETag", async () => {
    const { fixture: own, server } = await slowPollingServer();
    const first = await server.call("/api/trade_volume_usd_7d");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(ETAG);
    expect(
      (await server.call("/api/trade_volume_usd_7d", { headers: { "if-none-match": etag } })).status,
    ).toBe(304);

    const block = own.head.bsc + 1n;
    const trade: Trade = {
      network: "bsc",
      txHash: nextTxHash(),
      blockNumber: block,
      txIndex: 0,
      logIndex: 0,
      timestamp: Math.floor(Date.now() / 1000),
      sender: TRADERS.carol,
      tokenIn: BSC.USDT,
      amountIn: 1_000n * 10n ** 18n,
      tokenOut: BSC.USDC,
      amountOut: 999n * 10n ** 18n,
      volumeUsd: 1_000n * 10n ** 18n,
      tracked: true,
      pools: [POOLS.USDC_USDT],
    };
    await own.commit("bsc", [trade]);
    const after = await server.call("/api/trade_volume_usd_7d", { headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("x-indexed-block")).toBe(String(block));
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.text).not.toBe(first.text);
  });
});

describe("sendCachedJson", () => {
  test("behavior: a gzip body has its own ETag and Vary; each representation revalidates with its own tag", async () => {
    const value = Array.from({ length: 100 }, (_, i) => ({ date: `day ${i}`, trade_volume_usd: String(i) }));
    const answer = buildCachedJson(value, "bsc-7");
    const app = Fastify();
    app.get("/", (request, reply) =>
      sendCachedJson(request, reply, answer, { cacheControl: "public, max-age=1", headers: {} }),
    );
    onTestFinished(() => app.close());
    // In-process: the bytes as they would go on the wire (still gzipped).
    const call = async (headers: Record<string, string> = {}) => {
      const response = await app.inject({ url: "/", headers });
      return { status: response.statusCode, headers: response.headers, body: response.rawPayload };
    };

    const plain = await call();
    const zipped = await call({ "accept-encoding": "gzip" });
    expect(plain.body.toString()).toBe(JSON.stringify(value));
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).toString()).toBe(JSON.stringify(value));
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(zipped.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gzip"`);

    const identityTag = String(plain.headers.etag);
    const gzipTag = String(zipped.headers.etag);
    expect((await call({ "if-none-match": identityTag })).status).toBe(304);
    expect((await call({ "accept-encoding": "gzip", "if-none-match": gzipTag })).status).toBe(304);
    // A gzip tag does not validate the identity body, nor the other way round.
    expect((await call({ "if-none-match": gzipTag })).status).toBe(200);
    expect((await call({ "accept-encoding": "gzip", "if-none-match": identityTag })).status).toBe(200);
  });
});

describe("matchesIfNoneMatch", () => {
  test("args: exact, weak, listed and * match; other tags and no header do not", () => {
    const tag = '"bsc-1-abc"';
    expect(matchesIfNoneMatch(tag, tag)).toBe(true);
    expect(matchesIfNoneMatch(`W/${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch(`"x" ,  ${tag}`, tag)).toBe(true);
    expect(matchesIfNoneMatch("*", tag)).toBe(true);
    expect(matchesIfNoneMatch('"bsc-1-abc-gzip"', tag)).toBe(false);
    expect(matchesIfNoneMatch("bsc-1-abc", tag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
    expect(matchesIfNoneMatch("", tag)).toBe(false);
  });
});

describe("createLruCache", () => {
  const sized = (maxEntries: number, maxBytes: number) =>
    createLruCache<string>({ maxEntries, maxBytes, sizeOf: (key, value) => key.length + value.length });

  test("behavior: past maxEntries the least recently used entry goes; a read makes an entry recent", () => {
    const cache = sized(2, 1_000);
    cache.set("a", "1");
    cache.set("b", "2");
    expect(cache.get("a")).toBe("1");
    cache.set("c", "3");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe("1");
    expect(cache.get("c")).toBe("3");
    expect(cache.size).toBe(2);
  });

  test("behavior: past maxBytes old entries go until the bytes fit; a value larger than the bound is not kept", () => {
    const cache = sized(100, 10);
    cache.set("a", "xxxx");
    cache.set("b", "yyyy");
    expect(cache.bytes).toBe(10);
    cache.set("c", "zz");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.bytes).toBe(8);
    cache.set("d", "w".repeat(20));
    expect(cache.get("d")).toBeUndefined();
    cache.set("b", "y");
    expect(cache.bytes).toBe(5);
    cache.delete("b");
    expect(cache.bytes).toBe(3);
  });

  test("behavior: over many reads, writes and deletes, the entries kept are those a plain LRU keeps", () => {
    // The model: a Map re-inserted on every read, its first key the least recently used.
    const model = new Map<string, string>();
    const cache = sized(8, 1_000);
    let seed = 7;
    const next = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed;
    };
    for (let step = 0; step < 5_000; step++) {
      const key = `k${next() % 20}`;
      const op = next() % 10;
      if (op < 5) {
        const value = model.get(key);
        if (value !== undefined) {
          model.delete(key);
          model.set(key, value);
        }
        expect(cache.get(key), `step ${step}`).toBe(value);
      } else if (op < 9) {
        model.delete(key);
        model.set(key, String(step));
        while (model.size > 8) model.delete(model.keys().next().value!);
        cache.set(key, String(step));
      } else {
        model.delete(key);
        cache.delete(key);
      }
      expect(cache.size).toBe(model.size);
    }
  });

  test("error: maxEntries below 1 is refused", () => {
    expect(() => sized(0, 10)).toThrow(RangeError);
  });
});
