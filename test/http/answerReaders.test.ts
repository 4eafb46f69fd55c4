import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { priceChangePercentage } from "../../src/domain/priceChangePercentage.js";
import type { Address } from "../../src/domain/types.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { LISTING_ENDPOINTS } from "../../src/http/listings/createListingRoutes.js";
import type { Store } from "../../src/store/types.js";
import {
  type PoolTrade,
  renderCmcTrade,
  renderCoingeckoTrade,
} from "../../src/views/answers/buildPoolTrade.js";
import {
  createSettledSwapHours,
  type SettledSwapHours,
} from "../../src/views/answers/createSettledSwapHours.js";
import { readListedMarkets } from "../../src/views/answers/readListedMarkets.js";
import { readPoolBook } from "../../src/views/answers/readPoolBook.js";
import { openPoolTrades } from "../../src/views/answers/readPoolTrades.js";
import { readQuote } from "../../src/views/answers/readQuote.js";
import { readTradeVolume7d } from "../../src/views/answers/readTradeVolume7d.js";
import { hoursOf } from "../../src/views/answers/swapHours.js";
import { getPoolPrices } from "../../src/views/getPoolPrices.js";
import { getRollingPoolDay } from "../../src/views/getRollingPoolDay.js";
import { createGraphqlExecutor, type GraphqlExecutor } from "../support/createGraphqlExecutor.js";
import { chainHead, startTestDevnet, testClient } from "../support/devnet.js";
import * as throughGraphql from "../support/readAnswersThroughGraphql.js";
import { spyReader } from "../support/spyReader.js";
import { createTestStores } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { type RawAnswer, rawRequest, startServer, type TestServer } from "./support.js";

// The listings' readers and every /api answer read the views (src/views/answers); until they did,
// fixed GraphQL operations made the same answers (test/support/readAnswersThroughGraphql.ts). On a
// real indexed devnet (the listings test's, seed 37: V2 pairs of two DEXes and V3 pools, several
// pools of one pair), both make every listing endpoint, every ticker's trades (both windows), every
// pool's book, every refused pair id, the 7-day volumes, the quotes of every pair of 18 token
// inputs, the swap list (whole, with its settled hours read from the disk, and in limit and cursor
// pages, HEAD included) and the export alike, byte for byte; the server's answers are the views' bytes.
const silent = { info() {}, warn() {}, error() {} };
const DAY = 86_400;

let devnet: Devnet;
let config: NetworkConfig;
let store: Store;
let indexing: Indexing;
let api: TestServer;
let executor: GraphqlExecutor;
let hoursDir: string;
let swapHours: SettledSwapHours;
const [sqlite] = createTestStores();

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 37 });
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
  store = await sqlite!.open();
  indexing = createIndexing({ networks: [config], store, log: silent });
  hoursDir = mkdtempSync(join(tmpdir(), "swapgraph-answers-hours-"));
  swapHours = createSettledSwapHours({ views: indexing.views, dir: hoursDir });
  api = await startServer(indexing.views, { listen: true, swapHours });
  executor = createGraphqlExecutor({ reader: indexing.views, schema: buildSchema() });
  indexing.start();
  const head = await chainHead(devnet.chains[0]!.rpcUrl);
  await waitUntilIndexed(indexing.views, config.name, {
    to: head,
    also: () => indexing.views.poolsBlock(config.name) === head,
  });
}, 180_000);

afterAll(async () => {
  await api?.close();
  swapHours?.close();
  if (hoursDir !== undefined) rmSync(hoursDir, { recursive: true, force: true });
  await indexing?.stop();
  await store?.close();
  await sqlite?.cleanup();
  await devnet?.stop();
});

/** Every page of `pages`, each trade rendered by `render`, joined as the routes join them. */
async function rendered(pages: AsyncIterable<PoolTrade[]>, render: (trade: PoolTrade) => string) {
  const rows: string[] = [];
  for await (const page of pages) rows.push(...page.map(render));
  return rows.join(",");
}

/** The message and details of what `run` throws (undefined when it does not). */
async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    const { message, details } = error as { message: string; details?: unknown };
    return { message, details };
  }
}

describe("the listings' readers", () => {
  test("behavior: every listing endpoint is the same bytes from the views as through GraphQL, and the server sends them", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const operations = throughGraphql.parseListingOperations(executor);
    const graph = await throughGraphql.readListedMarkets(executor.session(nowMs), operations, network);
    const views = await readListedMarkets(indexing.views, network, nowMs);
    expect(graph.markets.length).toBeGreaterThan(10);
    expect(views.networkStatus).toEqual(graph.networkStatus);
    for (const { path, build } of LISTING_ENDPOINTS) {
      const bytes = JSON.stringify(build(graph.markets));
      expect(JSON.stringify(build(views.markets)), path).toBe(bytes);
      const served = await api.call(path.replace(":network", network));
      expect(served.status, path).toBe(200);
      expect(served.text, path).toBe(bytes);
    }
  });

  test("behavior: a listing reads every pool's last and 24-hour prices in one grouped store read, not three look-ups a pool", async () => {
    const network = config.name;
    // Every MarketReader method that reads the store.
    const storeReads = new Set([
      "getLastPrice",
      "getPoolLastPrices",
      "sumPoolSwaps",
      "getStoredBlock",
      "getTradeStats",
      "listTrades",
      "listCandles",
      "sumCandles",
      "listPoolEvents",
      "settledBefore",
    ]);
    const log: string[] = [];
    const nowMs = Date.now();
    const { markets } = await readListedMarkets(spyReader(indexing.views, log, storeReads), network, nowMs);
    expect(markets.length).toBeGreaterThan(10);
    expect(markets.filter((market) => market.priceChange24h !== undefined).length).toBeGreaterThan(5);
    // The day's figures may be kept from an earlier answer at this block; the prices are one read.
    expect(log.filter((name) => name !== "getStoredBlock" && name !== "sumPoolSwaps")).toEqual([
      "getPoolLastPrices",
    ]);

    // Each pool's prices are what its own three look-ups (as the listings made them before) say.
    const views = indexing.views;
    const now = Math.floor(nowMs / 1000);
    const day = await getRollingPoolDay(views, network, now);
    const pools = markets.map((market) => market.pool as Address);
    const grouped = await getPoolPrices(views, network, pools, now);
    let traded = 0;
    for (const pool of pools) {
      const priceAt = (beforeTimestamp: number, maxBlock: bigint) =>
        views.getLastPrice(network, {
          subject: { kind: "pool", pool },
          withNative: false,
          beforeTimestamp,
          maxBlock,
        });
      const last = await priceAt(now + 1, views.status(network).indexedBlock!);
      const [open, close] = [await priceAt(day.after + 1, day.block), await priceAt(day.at + 1, day.block)];
      expect(grouped.get(pool), pool).toEqual({ last, change24h: priceChangePercentage(open, close) });
      if (last !== undefined) traded += 1;
    }
    expect(traded).toBeGreaterThan(10);
  });

  test("behavior: every ticker's trades are the same bytes from the views as through GraphQL, in both windows and both forms of its id", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const session = executor.session(nowMs);
    const operations = throughGraphql.parsePoolTradeOperations(executor);
    const { markets } = await readListedMarkets(indexing.views, network, nowMs);
    let traded = 0;
    for (const market of markets) {
      const long = `${market.base.address}_${market.target.address}_${market.pool}`;
      for (const pairId of new Set([market.pairId, long])) {
        const graph = await throughGraphql.openPoolTrades(session, operations, network, pairId, "ticker_id");
        const views = await openPoolTrades(indexing.views, network, { pairId, param: "ticker_id", nowMs });
        // What the freshness headers are made of (the GraphQL status also carried historyFrom).
        const { indexedBlock, dataAgeSeconds } = graph.networkStatus!;
        expect(views.networkStatus).toEqual({ indexedBlock, dataAgeSeconds });
        expect(views.historyFrom).toBe(graph.historyFrom);
        const all = await rendered(graph.pages(graph.historyFrom, null), renderCoingeckoTrade);
        expect(await rendered(views.pages(views.historyFrom, null), renderCoingeckoTrade), pairId).toBe(all);
        const from = Math.floor(nowMs / 1000) - DAY;
        const day = await rendered(graph.pages(from, null), renderCmcTrade);
        expect(await rendered(views.pages(from, null), renderCmcTrade), pairId).toBe(day);
        if (all !== "") traded += 1;
        // The server's CoinMarketCap trades are the views' rows of the last 24 hours.
        const served = await api.call(`/cmc/${network}/trades/${pairId}`);
        expect(served.status, pairId).toBe(200);
        expect(served.text, pairId).toBe(`[${day}]`);
      }
    }
    expect(traded).toBeGreaterThan(10);
  });

  test("behavior: every pool's book is the same bytes from the views as through GraphQL, at every shape the routes ask for", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const session = executor.session(nowMs);
    const { markets } = await readListedMarkets(indexing.views, network, nowMs);
    const shapes = [
      { levels: 50, range: "2" },
      { levels: 1, range: "2" },
      { levels: 500, range: "2" },
      { levels: 5, range: "0.0001" },
      { levels: 20, range: "99.9999" },
      { levels: 10, range: "0.5" },
    ];
    let levels = 0;
    for (const market of markets) {
      const pair = { base: market.base.address, target: market.target.address, pool: market.pool as Address };
      for (const shape of shapes) {
        const args = { ...pair, param: "ticker_id", ...shape };
        const graph = await throughGraphql.readPoolBook(executor, session, network, args);
        const views = await readPoolBook(indexing.views, network, { ...args, nowMs });
        expect(JSON.stringify(views), `${market.pairId} ${JSON.stringify(shape)}`).toBe(
          JSON.stringify(graph),
        );
        levels += views.bids.length + views.asks.length;
      }
      // A pool named with tokens it does not hold is refused alike.
      const swapped = {
        ...pair,
        base: pair.target,
        target: pair.base,
        param: "market_pair",
        levels: 1,
        range: "2",
      };
      const refused = await refusal(() => throughGraphql.readPoolBook(executor, session, network, swapped));
      expect(refused).toBeDefined();
      expect(await refusal(() => readPoolBook(indexing.views, network, { ...swapped, nowMs }))).toEqual(
        refused,
      );
    }
    expect(levels).toBeGreaterThan(1000);
  });

  test("error: every refused pair id is refused alike, the ambiguous id's pools listed in one order", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const session = executor.session(nowMs);
    const operations = throughGraphql.parsePoolTradeOperations(executor);
    const { markets } = await readListedMarkets(indexing.views, network, nowMs);
    const shared = markets.filter((market) => market.pairId.split("_").length === 3);
    expect(shared.length).toBeGreaterThan(1);
    const { base, target, pool } = {
      base: markets[0]!.base.address,
      target: markets[0]!.target.address,
      pool: markets[0]!.pool,
    };
    // A pool of other tokens named with these.
    const other = markets.find((market) => market.base.address !== base || market.target.address !== target);
    const bad = [
      `${shared[0]!.base.address}_${shared[0]!.target.address}`,
      `${target}_${base}_${pool}`,
      `${target}_${base}`,
      "nope",
      `${base}_${target}_0x${"1".repeat(40)}`,
      `${base}_0x${"1".repeat(40)}`,
      `${base}_${target}_${other!.pool}`,
    ];
    for (const pairId of bad) {
      const graph = await refusal(() =>
        throughGraphql.openPoolTrades(session, operations, network, pairId, "market_pair"),
      );
      expect(graph, pairId).toBeDefined();
      const views = await refusal(() =>
        openPoolTrades(indexing.views, network, { pairId, param: "market_pair", nowMs }),
      );
      expect(views, pairId).toEqual(graph);
    }
  });
});

describe("the /api answers read from the views", () => {
  test("behavior: /api/trade_volume_usd_7d is the same bytes from the views as through GraphQL, and the server sends them", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const graph = await throughGraphql.readTradeVolume7d(executor, executor.session(nowMs), network);
    const views = await readTradeVolume7d(indexing.views, network, nowMs);
    expect(views.networkStatus).toEqual(graph.networkStatus);
    const bytes = JSON.stringify(graph.value);
    expect(bytes).toMatch(/"trade_volume_usd":"[1-9]/);
    expect(JSON.stringify(views.value)).toBe(bytes);
    const served = await api.call(`/api/trade_volume_usd_7d?network=${network}`);
    expect(served.text).toBe(bytes);
  });

  test("behavior: /api/quote is the same bytes from the views as through GraphQL for every pair of tokens, and refuses alike", async () => {
    const network = config.name;
    const nowMs = Date.now();
    const session = executor.session(nowMs);
    const { markets } = await readListedMarkets(indexing.views, network, nowMs);
    const addresses = [...new Set(markets.flatMap((market) => [market.base.address, market.target.address]))];
    const symbols = markets.flatMap((market) => [market.base.symbol, market.target.symbol]);
    // Addresses, symbols in any case, the native coin, and what is refused: 18 inputs on this devnet.
    const inputs = [
      ...new Set([
        ...addresses.slice(0, 6),
        ...symbols.slice(0, 6).map((s) => s.toLowerCase()),
        ...symbols.slice(0, 4),
      ]),
      config.native.symbol,
      addresses[0]!.toUpperCase().replace("0X", "0x"),
      `0X${addresses[0]!.slice(2)}`,
      "NOPE",
      "0x123",
      "",
    ];
    let quoted = 0;
    let refused = 0;
    for (const sellToken of inputs) {
      for (const buyToken of inputs) {
        const variables = { network, sellToken, buyToken };
        const graph = await refusal(() => throughGraphql.readQuote(executor, session, variables));
        const views = await refusal(() => readQuote(indexing.views, { ...variables, nowMs }));
        expect(views, `${sellToken} ${buyToken}`).toEqual(graph);
        if (graph !== undefined) {
          refused += 1;
          continue;
        }
        const made = await throughGraphql.readQuote(executor, session, variables);
        const mine = await readQuote(indexing.views, { ...variables, nowMs });
        expect(mine.networkStatus).toEqual(made.networkStatus);
        expect(JSON.stringify(mine.value), `${sellToken} ${buyToken}`).toBe(JSON.stringify(made.value));
        quoted += 1;
        if (quoted % 25 === 1) {
          const served = await api.call(`/api/quote?${new URLSearchParams(variables)}`);
          expect(served.text, `${sellToken} ${buyToken}`).toBe(JSON.stringify(made.value));
        }
      }
    }
    expect(quoted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});

/**
 * `served` asked until it starts and ends within one second (the window starts 24 hours before the
 * request's second), and the reference made at that second.
 */
async function withinOneSecond<T>(
  served: () => Promise<RawAnswer>,
  reference: (nowMs: number) => Promise<T>,
): Promise<{ answer: RawAnswer; expected: T }> {
  for (;;) {
    const second = Math.floor(Date.now() / 1000);
    const answer = await served();
    if (Math.floor(Date.now() / 1000) !== second) continue;
    return { answer, expected: await reference(second * 1000) };
  }
}

/** The freshness and paging headers of an answer, X-Data-Age apart (it moves with the clock). */
function listHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of ["x-indexed-block", "x-next-cursor", "link"]) {
    if (headers[name] !== undefined) picked[name] = headers[name];
  }
  return picked;
}

/** Checks X-Data-Age against the reference's: within a second of it, as the two are read apart. */
function expectDataAge(headers: Record<string, unknown>, expected: Record<string, string>): void {
  expect(Math.abs(Number(headers["x-data-age"]) - Number(expected["x-data-age"]))).toBeLessThanOrEqual(1);
}

describe("the swap lists read from the views", () => {
  test("behavior: the whole /api/swaps_24h, its settled hours read from the disk, is the same bytes as through GraphQL, plain and gzip", async () => {
    const network = config.name;
    // The devnet's blocks are hours apart: its last finalityDepth blocks span days, and none of the
    // window's hours has settled. Blocks with no swap, mined now, settle them (and change no answer).
    const rpcUrl = devnet.chains[0]!.rpcUrl;
    await testClient(rpcUrl).mine({ blocks: config.finalityDepth + 1 });
    const head = await chainHead(rpcUrl);
    await waitUntilIndexed(indexing.views, network, { to: head });
    const at = Math.floor(Date.now() / 1000);
    const kept = () => hoursOf(at - DAY, at).filter((start) => swapHours.find(network, start, head));
    await waitFor(() => kept().length >= 20, 60_000, "settled hours rendered");
    await swapHours.idle();
    for (const gzip of [false, true]) {
      const url = `${api.baseUrl}/api/swaps_24h?network=${network}`;
      const { answer, expected } = await withinOneSecond(
        () => rawRequest(url, gzip ? { "accept-encoding": "gzip" } : {}),
        (nowMs) => throughGraphql.readSwaps24h(executor, executor.session(nowMs), { network }),
      );
      expect(answer.status).toBe(200);
      expect(answer.complete).toBe(true);
      expect(answer.headers["content-encoding"]).toBe(gzip ? "gzip" : undefined);
      expect((gzip ? gunzipSync(answer.body) : answer.body).toString("utf8")).toBe(expected.body);
      expect(listHeaders(answer.headers)).toEqual(listHeaders(expected.headers));
      expectDataAge(answer.headers, expected.headers);
      expect(JSON.parse(expected.body).length).toBeGreaterThan(20);
    }
  });

  test.each([1, 7, 10, 1000])(
    "behavior: limit %i pages of /api/swaps_24h, followed by X-Next-Cursor, are the same bytes and headers as through GraphQL, and HEAD the GET's headers",
    async (limit) => {
      const network = config.name;
      let cursor: string | undefined;
      let pages = 0;
      do {
        const query = new URLSearchParams({ network, limit: String(limit), ...(cursor ? { cursor } : {}) });
        const url = `${api.baseUrl}/api/swaps_24h?${query}`;
        const { answer, expected } = await withinOneSecond(
          () => rawRequest(url),
          (nowMs) =>
            throughGraphql.readSwaps24h(executor, executor.session(nowMs), {
              network,
              limit,
              ...(cursor === undefined ? {} : { cursor }),
            }),
        );
        expect(answer.status).toBe(200);
        expect(answer.body.toString("utf8")).toBe(expected.body);
        expect(listHeaders(answer.headers)).toEqual(listHeaders(expected.headers));
        expectDataAge(answer.headers, expected.headers);
        const head = await rawRequest(url, { "accept-encoding": "gzip" }, "HEAD");
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        // HEAD tells the block and the encoding, never a next cursor (it reads no page).
        expect(head.headers).toMatchObject({
          "content-type": "application/json; charset=utf-8",
          "content-encoding": "gzip",
          vary: "accept-encoding",
          "x-indexed-block": expected.headers["x-indexed-block"],
        });
        expect(head.headers["x-next-cursor"]).toBeUndefined();
        expect(head.headers["content-length"]).toBeUndefined();
        cursor = expected.headers["x-next-cursor"];
        pages += 1;
      } while (cursor !== undefined && pages < 60);
      expect(pages).toBeGreaterThan(limit < 1000 ? 2 : 0);
    },
  );

  test("behavior: /api/swaps_export is the same bytes and headers as through GraphQL, for whole and bounded windows and older blocks", async () => {
    const network = config.name;
    const now = Math.floor(Date.now() / 1000);
    const head = indexing.views.status(network).indexedBlock!;
    const windows = [
      { from: String(now - 8 * DAY) },
      { from: new Date((now - 3 * DAY) * 1000).toISOString(), to: String(now - DAY) },
      { from: String(now - 8 * DAY), atBlock: String(head - 100n) },
      { from: String(now - 2 * DAY), atBlock: String(head + 100n) },
      { from: String(now) },
    ];
    for (const window of windows) {
      const url = `${api.baseUrl}/api/swaps_export?${new URLSearchParams({ network, ...window })}`;
      const { answer, expected } = await withinOneSecond(
        () => rawRequest(url, { "accept-encoding": "gzip" }),
        (nowMs) => throughGraphql.readSwapsExport(executor, executor.session(nowMs), { network, ...window }),
      );
      expect(answer.status, url).toBe(200);
      expect(answer.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
      const body = answer.headers["content-encoding"] === "gzip" ? gunzipSync(answer.body) : answer.body;
      expect(body.toString("utf8"), url).toBe(expected.body);
      expect(listHeaders(answer.headers), url).toEqual(listHeaders(expected.headers));
      expectDataAge(answer.headers, expected.headers);
    }
    expect(
      (
        await throughGraphql.readSwapsExport(executor, executor.session(), { network, ...windows[0]! })
      ).body.split("\n").length,
    ).toBeGreaterThan(250);
  });

  test("error: both lists refuse alike: a window that is not a time or ends before it starts, a network this server does not index", async () => {
    const refused = [
      ["/api/swaps_export?network=bsc&from=yesterday", { network: "bsc", from: "yesterday" }],
      ["/api/swaps_export?network=bsc&from=10&to=soon", { network: "bsc", from: "10", to: "soon" }],
      [
        "/api/swaps_export?network=bsc&from=1700000000&to=1600000000",
        { network: "bsc", from: "1700000000", to: "1600000000" },
      ],
      ["/api/swaps_export?network=eth&from=yesterday", { network: "eth", from: "yesterday" }],
      ["/api/swaps_export?network=eth&from=0", { network: "eth", from: "0" }],
    ] as const;
    for (const [path, args] of refused) {
      const served = await api.call(path);
      const graph = await refusal(() => throughGraphql.readSwapsExport(executor, executor.session(), args));
      expect(served.body, path).toEqual({ error: (graph as { message: string }).message });
      expect(served.status, path).toBe(args.network === "eth" && args.from === "0" ? 503 : 400);
    }
    const served = await api.call("/api/swaps_24h?network=eth");
    const graph = await refusal(() =>
      throughGraphql.readSwaps24h(executor, executor.session(), { network: "eth" }),
    );
    expect(served.status).toBe(503);
    expect(served.body).toEqual({ error: (graph as { message: string }).message });
  });
});
