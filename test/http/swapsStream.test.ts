import { request as httpRequest, type ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import type { Logger } from "pino";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { NetworkName, Trade } from "../../src/domain/types.js";
import type { MarketReader } from "../../src/views/types.js";
import { createMemoryLogger } from "../graphql/support.js";
import { expectedSwapBody } from "../support/expectedSwapBody.js";
import { BSC, createFixtureReader, type Fixture, nextTxHash, TRADERS } from "../support/fixtureReader.js";
import { assertSpecShapeError, assertSpecShapeSwaps } from "../support/specShape.js";
import { waitFor } from "../support/waitFor.js";
import { type RawAnswer, rawRequest, startServer, type TestServer } from "./support.js";

// GET /api/swaps_24h streams its array page by page: these tests force many pages (7 swaps each).
const PAGE = 7;
const DAY = 86_400;

const META: Record<string, { name: string; symbol: string; decimals: string }> = {
  "": { name: "BNB", symbol: "BNB", decimals: "18" },
  [BSC.USDT]: { name: "Tether USD", symbol: "USDT", decimals: "18" },
  [BSC.BTCB]: { name: "BTCB Token", symbol: "BTCB", decimals: "18" },
  [BSC.CAKE]: { name: "PancakeSwap Token", symbol: "Cake", decimals: "18" },
  [BSC.DUST]: { name: "Dust Token", symbol: "DUST", decimals: "18" },
};

function expectedSwap(trade: Trade) {
  return expectedSwapBody(trade, (ref) => META[ref]!);
}

/** What the old one-piece answer was: JSON.stringify of the whole window's array. */
function expectedBody(fixture: Fixture, atBlock = fixture.head.bsc): string {
  const window = fixture.trades.bsc.filter(
    (t) => t.timestamp >= fixture.now - DAY && t.blockNumber <= atBlock,
  );
  return JSON.stringify(window.map(expectedSwap));
}

/** A reader that counts the store pages the API reads (a spy over the real views). */
function countingReader(reader: MarketReader): { reader: MarketReader; pages: TradePageQuery[] } {
  const pages: TradePageQuery[] = [];
  const spy = Object.assign(Object.create(reader) as MarketReader, {
    listTrades: (network: NetworkName, query: TradePageQuery) => {
      pages.push(query);
      return reader.listTrades(network, query);
    },
  });
  return { reader: spy, pages };
}

let fixture: Fixture;
let api: TestServer;

beforeAll(async () => {
  fixture = await createFixtureReader({ bulkTrades: 200 });
  // Streaming itself is under test here: no answer is shared between requests.
  api = await startServer(fixture.reader, {
    listen: true,
    swapsPageSize: PAGE,
    sharedListMaxChars: 0,
  });
});

afterAll(async () => {
  await api.close();
  await fixture.close();
});

describe("GET /api/swaps_24h streamed", () => {
  test("behavior: many pages make the contract's array, byte-identical with and without gzip", async () => {
    const plain = await rawRequest(`${api.baseUrl}/api/swaps_24h`);
    const packed = await rawRequest(`${api.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
    const expected = expectedBody(fixture);
    expect(JSON.parse(expected)).toHaveLength(204);
    expect(plain.body.toString("utf8")).toBe(expected);
    assertSpecShapeSwaps(JSON.parse(expected));
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
    for (const answer of [plain, packed]) {
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(true);
      expect(answer.headers["transfer-encoding"]).toBe("chunked");
      expect(answer.headers["content-length"]).toBeUndefined();
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(String(answer.headers.vary).toLowerCase()).toBe("accept-encoding");
      expect(answer.headers["x-indexed-block"]).toBe(fixture.head.bsc.toString());
    }
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(packed.headers["content-encoding"]).toBe("gzip");
    expect(packed.body.length).toBeLessThan(plain.body.length / 3);
  });

  test("behavior: concurrent requests of one block and second wait for one rendering instead of each rendering it", async () => {
    const local = await createFixtureReader({ bulkTrades: 50 });
    let pages = 0;
    const spy = Object.assign(Object.create(local.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        pages++;
        return local.reader.listTrades(network, query);
      },
    });
    const sharing = await startServer(spy, {
      listen: true,
      swapsPageSize: PAGE,
    });
    onTestFinished(async () => {
      await sharing.close();
      await local.close();
    });
    const url = `${sharing.baseUrl}/api/swaps_24h`;
    // One rendering reads the window in pages of PAGE (each page asks one row more than it shows).
    const inWindow = (JSON.parse(expectedBody(local)) as unknown[]).length;
    const onePass = Math.max(1, Math.ceil(inWindow / PAGE));
    // Ten at once, within one second (the window start is per second): retried at a second's edge.
    let answers: RawAnswer[] = [];
    await waitFor(async () => {
      // Each try starts early in a second no earlier try touched: a kept answer of a try that
      // crossed a second's edge must not serve this one (a loaded machine made that happen).
      await new Promise((resolve) => setTimeout(resolve, 1_005 - (Date.now() % 1_000)));
      pages = 0;
      const second = Math.floor(Date.now() / 1000);
      answers = await Promise.all(Array.from({ length: 10 }, () => rawRequest(url)));
      return Math.floor(Date.now() / 1000) === second;
    }, 10_000);
    expect(new Set(answers.map((answer) => answer.body.toString("utf8")))).toEqual(
      new Set([expectedBody(local)]),
    );
    expect(answers.filter((answer) => answer.headers["transfer-encoding"] === "chunked")).toHaveLength(1);
    expect(pages).toBe(onePass);
  });

  test("behavior: a small whole window is rendered once and shared within its block and second", async () => {
    const local = await createFixtureReader({ bulkTrades: 50 });
    const sharing = await startServer(local.reader, {
      listen: true,
      swapsPageSize: PAGE,
    });
    onTestFinished(async () => {
      await sharing.close();
      await local.close();
    });
    const url = `${sharing.baseUrl}/api/swaps_24h`;
    // Two requests land in the same second almost always; the window start is per second.
    let pair: [RawAnswer, RawAnswer] | undefined;
    await waitFor(async () => {
      const first = await rawRequest(url);
      const second = await rawRequest(url);
      pair = [first, second];
      return (
        first.headers["transfer-encoding"] === "chunked" && second.headers["content-length"] !== undefined
      );
    }, 10_000);
    const [rendered, shared] = pair!;
    expect(shared.body.equals(rendered.body)).toBe(true);
    expect(shared.body.toString("utf8")).toBe(expectedBody(local));
    expect(shared.headers["x-indexed-block"]).toBe(local.head.bsc.toString());
    // The shared copy is an answer like the others: a validator for its block and second, no max-age.
    expect(shared.headers["cache-control"]).toBe("no-cache");
    expect(shared.headers.etag).toMatch(new RegExp(`^"bsc-${local.head.bsc}-`));
    const packed = await rawRequest(url, { "accept-encoding": "gzip" });
    expect(gunzipSync(packed.body).equals(rendered.body)).toBe(true);
    // A new indexed block renders anew, with the new swap in it.
    const trade: Trade = {
      ...local.trades.bsc.at(-1)!,
      txHash: nextTxHash(),
      blockNumber: local.head.bsc + 1n,
      timestamp: Math.floor(Date.now() / 1000),
      txIndex: 0,
    };
    await local.commit("bsc", [trade]);
    const after = await rawRequest(url);
    expect(after.headers["transfer-encoding"]).toBe("chunked");
    expect(JSON.parse(after.body.toString("utf8")).map((s: { tx_hash: string }) => s.tx_hash)).toContain(
      trade.txHash,
    );
  });

  test("behavior: an empty window is [] and a one-page window is one piece", async () => {
    // Every trade a month old: nothing in the last 24 hours.
    const empty = await createFixtureReader({ now: Math.floor(Date.now() / 1000) - 30 * DAY });
    // Both requests stream (no shared copy), so both go through the streamed gzip.
    const server = await startServer(empty.reader, {
      listen: true,
      swapsPageSize: PAGE,
      sharedListMaxChars: 0,
    });
    onTestFinished(async () => {
      await server.close();
      await empty.close();
    });
    const plain = await rawRequest(`${server.baseUrl}/api/swaps_24h`);
    const packed = await rawRequest(`${server.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
    expect(plain.body.toString()).toBe("[]");
    expect(gunzipSync(packed.body).toString()).toBe("[]");
    // eth has two swaps in the window: less than one page.
    const eth = await api.call("/api/swaps_24h?network=eth");
    expect((eth.body as unknown[]).length).toBe(2);
  });

  test("behavior: concurrent downloads during heavy writes each get a whole array of one indexed block", async () => {
    const local = await createFixtureReader({ bulkTrades: 300 });
    const server = await startServer(local.reader, {
      listen: true,
      swapsPageSize: PAGE,
    });
    onTestFinished(async () => {
      await server.close();
      await local.close();
    });
    let writing = true;
    let commits = 0;
    const writer = (async () => {
      // 20 new swaps a block, a block each turn of the event loop, while the downloads run (capped,
      // so that an answer that followed the writes instead of its pinned block would still end).
      while (writing && commits < 300) {
        const block = local.head.bsc + 1n;
        const trades = Array.from(
          { length: 20 },
          (_, i): Trade => ({
            ...local.trades.bsc.at(-1)!,
            txHash: nextTxHash(),
            blockNumber: block,
            timestamp: Math.floor(Date.now() / 1000),
            txIndex: i,
            sender: TRADERS.carol,
          }),
        );
        await local.commit("bsc", trades);
        commits++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const download = async (gzip: boolean) => {
      const startCommits = commits;
      const answer = await rawRequest(
        `${server.baseUrl}/api/swaps_24h`,
        gzip ? { "accept-encoding": "gzip" } : {},
      );
      return { answer, gzip, writesDuring: commits - startCommits };
    };
    const results = await Promise.all([download(false), download(true), download(false), download(true)]);
    writing = false;
    await writer;

    for (const { answer, gzip, writesDuring } of results) {
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(true);
      const text = (gzip ? gunzipSync(answer.body) : answer.body).toString("utf8");
      const atBlock = BigInt(answer.headers["x-indexed-block"] as string);
      // Exactly the window as indexed at the block the answer was pinned to, however much
      // was indexed while it streamed.
      expect(text).toBe(expectedBody(local, atBlock));
      expect(writesDuring).toBeGreaterThan(0);
      assertSpecShapeSwaps(JSON.parse(text));
    }
    expect(local.head.bsc).toBeGreaterThan(BigInt(results[0]!.answer.headers["x-indexed-block"] as string));
  });

  test("behavior: HEAD answers the headers after a one-row probe, without reading the pages", async () => {
    const counted = countingReader(fixture.reader);
    const cold = await createFixtureReader({ notReady: ["eth"] });
    const server = await startServer(counted.reader, {
      listen: true,
      swapsPageSize: PAGE,
    });
    const coldServer = await startServer(cold.reader, { listen: true });
    onTestFinished(async () => {
      await server.close();
      await coldServer.close();
      await cold.close();
    });
    const head = await rawRequest(`${server.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers).toMatchObject({
      "content-type": "application/json; charset=utf-8",
      "content-encoding": "gzip",
      "x-indexed-block": fixture.head.bsc.toString(),
    });
    expect(head.headers["content-length"]).toBeUndefined();
    expect(counted.pages.map((page) => page.limit)).toEqual([2]);
    // Its status is the GET's, errors included.
    const notReady = await rawRequest(`${coldServer.baseUrl}/api/swaps_24h?network=eth`, {}, "HEAD");
    expect(notReady.status).toBe(503);
  });

  test("error: an error after the first byte cuts the body off; one before it is the JSON error", async () => {
    const { reader } = fixture;
    let calls = 0;
    let failOn = 3;
    const failing = Object.assign(Object.create(reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        calls++;
        if (calls === failOn) return Promise.reject(new Error("SQLITE_IOERR: disk I/O error"));
        return reader.listTrades(network, query);
      },
    });
    const { logger, records } = createMemoryLogger("warn");
    // 50 swaps (about 25 KB) fill the socket's buffer: the server waits for 'drain', so pages 1
    // and 2 are on the wire when page 3 fails.
    const server = await startServer(failing, {
      listen: true,
      swapsPageSize: 50,
      logger,
    });
    onTestFinished(() => server.close());
    const cut = await rawRequest(`${server.baseUrl}/api/swaps_24h`);
    expect(cut.status).toBe(200);
    expect(cut.complete).toBe(false);
    expect(cut.body.toString()).toMatch(/^\[\{"tx_hash":/);
    expect(() => JSON.parse(cut.body.toString())).toThrow();
    expect(records.some((r) => r.level === 50 && JSON.stringify(r).includes("SQLITE_IOERR"))).toBe(true);

    calls = 0;
    failOn = 1;
    const before = await rawRequest(`${server.baseUrl}/api/swaps_24h`);
    expect(before.status).toBe(500);
    expect(before.complete).toBe(true);
    expect(before.headers["content-length"]).toBe(String(before.body.length));
    expect(JSON.parse(before.body.toString())).toEqual({ error: "Internal server error." });
  });
});

describe("GET /api/swaps_24h, about 10 MB", () => {
  // Larger than the sockets' buffers (about 4 MB here): a client that reads nothing blocks the server.
  const BIG = 20_004;
  let big: Fixture;

  beforeAll(async () => {
    big = await createFixtureReader({ bulkTrades: BIG - 4 });
  });
  afterAll(async () => {
    await big.close();
  });

  /** A server over the big fixture whose reader records each page read and the socket's state then. */
  async function startWatched(swapsPageSize: number, logger?: Logger, stallTimeoutMs?: number) {
    let response: ServerResponse | undefined;
    const reads: { needDrain: boolean }[] = [];
    const spy = Object.assign(Object.create(big.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        reads.push({ needDrain: response?.writableNeedDrain ?? false });
        return big.reader.listTrades(network, query);
      },
    });
    const server = await startServer(spy, {
      listen: true,
      swapsPageSize,
      ...(logger === undefined ? {} : { logger }),
      ...(stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
    });
    server.server.prependListener("request", (_req, res: ServerResponse) => {
      response = res;
    });
    onTestFinished(() => server.close());
    return { server, reads, response: () => response };
  }

  test("behavior: a slow reader gets the whole array; no page is read while the socket wants 'drain'", async () => {
    const { server, reads, response } = await startWatched(500);
    let pagesWhileBlocked = 0;
    const received = await new Promise<{ body: Buffer; complete: boolean }>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/api/swaps_24h`, { agent: false }, (res) => {
        // The client reads nothing until the server has to wait for it.
        res.pause();
        const chunks: Buffer[] = [];
        waitFor(() => response()?.writableNeedDrain === true && reads.length > 2, 20_000, "'drain'")
          .then(() => {
            pagesWhileBlocked = reads.length;
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ body: Buffer.concat(chunks), complete: res.complete }));
            res.resume();
          })
          .catch(reject);
      });
      req.on("error", reject);
      req.end();
    });
    const total = Math.ceil(BIG / 500);
    expect(received.complete).toBe(true);
    expect(received.body.toString()).toBe(expectedBody(big));
    expect(reads).toHaveLength(total);
    expect(pagesWhileBlocked).toBeLessThan(total);
    // Backpressure where it matters: a page is read only once the previous one drained.
    expect(reads.filter((read) => read.needDrain)).toEqual([]);
  });

  test("error: a client that reads nothing for the stall timeout is cut off", async () => {
    const { logger, records } = createMemoryLogger("debug");
    const { server, reads } = await startWatched(500, logger, 300);
    const cut = await new Promise<{ complete: boolean }>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/api/swaps_24h`, { agent: false }, (res) => {
        res.pause();
        res.on("error", () => {});
        waitFor(() => records.some((r) => r.msg === "client gone"), 20_000, "the server to give up")
          .then(() => {
            // Reading again now finds the body cut off where the server stopped.
            res.on("close", () => resolve({ complete: res.complete }));
            res.resume();
          })
          .catch(reject);
      });
      req.on("error", reject);
      req.end();
    });
    expect(cut.complete).toBe(false);
    expect(reads.length).toBeLessThan(Math.ceil(BIG / 500));
    expect(records.find((r) => r.msg === "client gone")).toMatchObject({
      reason: "The client read nothing for 300 ms.",
    });
  });

  test("behavior: a client that hangs up stops the paging", async () => {
    const { logger, records } = createMemoryLogger("debug");
    const { server, reads } = await startWatched(100, logger);
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/api/swaps_24h`, { agent: false }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (error) => {
        if (!req.destroyed) reject(error);
      });
      req.end();
    });
    await waitFor(() => records.some((r) => r.msg === "client gone"), 10_000, "the handler to notice");
    const pages = reads.length;
    expect(pages).toBeLessThan(BIG / 100 / 2);
    // Nothing after noticing: the next request starts from a clean count.
    expect((await server.call("/api/swaps_24h?limit=1")).status).toBe(200);
    expect(reads.length).toBe(pages + 1);
  });
});

describe("GET /api/swaps_24h?limit&cursor", () => {
  async function follow(limit: number, gzip = false): Promise<{ pages: RawAnswer[]; items: unknown[] }> {
    const pages: RawAnswer[] = [];
    const items: unknown[] = [];
    let path = `/api/swaps_24h?limit=${limit}`;
    for (let i = 0; i < 100; i++) {
      const answer = await rawRequest(`${api.baseUrl}${path}`, gzip ? { "accept-encoding": "gzip" } : {});
      expect(answer.status).toBe(200);
      pages.push(answer);
      const list = JSON.parse((gzip ? gunzipSync(answer.body) : answer.body).toString()) as unknown[];
      assertSpecShapeSwaps(list);
      items.push(...list);
      const next = answer.headers["x-next-cursor"] as string | undefined;
      if (next === undefined) {
        expect(answer.headers.link).toBeUndefined();
        break;
      }
      expect(list).toHaveLength(limit);
      expect(answer.headers.link).toBe(
        `</api/swaps_24h?network=bsc&limit=${limit}&cursor=${next}>; rel="next"`,
      );
      path = `/api/swaps_24h?limit=${limit}&cursor=${next}`;
    }
    return { pages, items };
  }

  test.each([
    [5, "less than a stream page"],
    [25, "several stream pages"],
    [204, "exactly the window"],
    [10_000, "the largest limit"],
  ])("behavior: limit %i (%s) pages concatenate to the whole list", async (limit) => {
    const { pages, items } = await follow(limit);
    expect(JSON.stringify(items)).toBe(expectedBody(fixture));
    expect(pages).toHaveLength(Math.ceil(204 / limit));
  });

  test("behavior: a limited page with gzip unpacks to the same list", async () => {
    const { items } = await follow(50, true);
    expect(JSON.stringify(items)).toBe(expectedBody(fixture));
  });

  test("error: a bad limit or cursor is 400", async () => {
    const answers = [];
    for (const query of [
      "limit=0",
      "limit=10001",
      "limit=1.5",
      "limit=ten",
      "cursor=bm90LWEtY3Vyc29y",
      "limit=1&limit=2",
    ]) {
      const { status, body } = await api.call(`/api/swaps_24h?${query}`);
      answers.push({ status, error: assertSpecShapeError(body) });
    }
    expect(answers).toMatchInlineSnapshot(`
      [
        {
          "error": "limit must be an integer from 1 to 10000.",
          "status": 400,
        },
        {
          "error": "limit must be an integer from 1 to 10000.",
          "status": 400,
        },
        {
          "error": "limit must be an integer from 1 to 10000.",
          "status": 400,
        },
        {
          "error": "limit must be an integer from 1 to 10000.",
          "status": 400,
        },
        {
          "error": "cursor is not valid: pass the X-Next-Cursor header of a previous answer.",
          "status": 400,
        },
        {
          "error": "limit was given more than once; give it once.",
          "status": 400,
        },
      ]
    `);
  });
});
