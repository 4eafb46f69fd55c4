import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { NetworkName } from "../../src/domain/types.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import type { Store } from "../../src/store/types.js";
import { hoursOf, isSettledHour } from "../../src/views/answers/swapHours.js";
import { type SwapNode, toSwapRow } from "../../src/views/answers/swapRow.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { createTestStores } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { rawRequest, startServer, type TestServer } from "./support.js";

// /api/swaps_24h renders GraphQL pages straight to bytes (createSwapRowRenderer). Its answer must
// stay the bytes the GraphQL API itself gives: each swap of the public `swaps` query (POST
// /graphql, graphql-js in yoga: neither the REST executor nor its renderer) as the spec's object,
// the list as JSON.stringify of the array.

const SWAPS = /* GraphQL */ `
  query ($from: Timestamp!, $atBlock: BigInt, $after: String) {
    swaps(network: bsc, from: $from, atBlock: $atBlock, first: 1000, after: $after) {
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          txHash
          blockNumber
          sell { token { name symbol decimals address } amount amountDecimal(digits: 8) }
          buy { token { name symbol decimals address } amount amountDecimal(digits: 8) }
          volumeUSD
        }
      }
    }
  }
`;

/** The 24-hour list at `atBlock` as the spec's objects, read from the public GraphQL endpoint page by page. */
async function graphqlList(api: TestServer, atBlock: string): Promise<unknown[]> {
  const list: unknown[] = [];
  let after: string | null = null;
  for (;;) {
    const variables = { from: Math.floor(Date.now() / 1000) - 86_400, atBlock, after };
    const answer = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: SWAPS, variables }),
    });
    const { swaps } = (
      answer.body as {
        data: {
          swaps: { pageInfo: { hasNextPage: boolean; endCursor: string }; edges: { node: SwapNode }[] };
        };
      }
    ).data;
    for (const { node } of swaps.edges) {
      list.push(toSwapRow(node));
    }
    if (!swaps.pageInfo.hasNextPage) return list;
    after = swaps.pageInfo.endCursor;
  }
}

describe.each(createTestStores())("GET /api/swaps_24h bytes on $name", (backend) => {
  let store: Store;
  let fixture: Fixture;
  // The default stream pages (250 swaps), and pages of 7 that split the list anywhere.
  let api: TestServer;
  let small: TestServer;

  beforeAll(async () => {
    store = await backend.open();
    fixture = await createFixtureReader({ bulkTrades: 600, store });
    api = await startServer(fixture.reader, { sharedListMaxChars: 0, listen: true });
    small = await startServer(fixture.reader, { swapsPageSize: 7, sharedListMaxChars: 0, listen: true });
  });

  afterAll(async () => {
    await api?.close();
    await small?.close();
    await fixture?.close();
    await backend.cleanup();
  });

  test("behavior: the whole list is byte for byte JSON.stringify of the GraphQL swaps pages, plain and gzip", async () => {
    for (const server of [api, small]) {
      const plain = await rawRequest(`${server.baseUrl}/api/swaps_24h`);
      const packed = await rawRequest(`${server.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
      const atBlock = plain.headers["x-indexed-block"] as string;
      expect(atBlock).toBe(fixture.head.bsc.toString());
      const expected = JSON.stringify(await graphqlList(api, atBlock));
      expect(JSON.parse(expected)).toHaveLength(604);
      expect(plain.complete).toBe(true);
      expect(plain.body.toString("utf8")).toBe(expected);
      expect(packed.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(packed.body).toString("utf8")).toBe(expected);
    }
  });

  test("behavior: a streamed list is gzipped at zlib's fastest level (gzip header XFL 4), other answers at the default", async () => {
    const list = await rawRequest(`${api.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
    // XFL, the ninth byte of a gzip member: 4 for level 1, 0 for the default level 6.
    expect(list.headers["content-encoding"]).toBe("gzip");
    expect(list.body[8]).toBe(4);
    const graphql = await rawRequest(
      `${api.baseUrl}/graphql?query=${encodeURIComponent("{ __schema { types { name description } } }")}`,
      {
        "accept-encoding": "gzip",
      },
    );
    expect(graphql.headers["content-encoding"]).toBe("gzip");
    expect(graphql.body[8]).toBe(0);
  });

  test.each([1, 7, 250, 333, 604, 10_000])(
    "behavior: limit %i pages, followed by X-Next-Cursor, are each the bytes of their slice of the GraphQL list",
    async (limit) => {
      const expected = await graphqlList(api, fixture.head.bsc.toString());
      let path = `/api/swaps_24h?limit=${limit}`;
      let offset = 0;
      for (let page = 0; page < 1_000; page++) {
        const answer = await rawRequest(`${small.baseUrl}${path}`);
        expect(answer.status).toBe(200);
        const slice = expected.slice(offset, offset + limit);
        expect(answer.body.toString("utf8")).toBe(JSON.stringify(slice));
        offset += slice.length;
        const next = answer.headers["x-next-cursor"] as string | undefined;
        if (next === undefined) break;
        path = `/api/swaps_24h?limit=${limit}&cursor=${next}`;
      }
      expect(offset).toBe(expected.length);
    },
  );

  test("behavior: with settled hours kept on disk, every download is the same bytes and later ones read only the moving ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const pages: TradePageQuery[] = [];
    const counting = Object.assign(Object.create(fixture.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        pages.push(query);
        return fixture.reader.listTrades(network, query);
      },
    });
    const cached = await startServer(counting, {
      listen: true,
      swapsPageSize: 7,
      sharedListMaxChars: 0,
      swapsCacheDir: dir,
    });
    try {
      const expected = JSON.stringify(await graphqlList(api, fixture.head.bsc.toString()));
      const cold = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      const coldPages = pages.length;
      pages.length = 0;
      const warm = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      const packed = await rawRequest(`${cached.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
      expect(cold.body.toString("utf8")).toBe(expected);
      expect(warm.body.toString("utf8")).toBe(expected);
      expect(gunzipSync(packed.body).toString("utf8")).toBe(expected);
      // The fixture's swaps span 23 hours: the settled ones (all but the window's first hour and
      // the last two) are read once, then come from the disk.
      const [keptDir] = readdirSync(dir);
      const kept = readdirSync(join(dir, keptDir!)).filter((name) => name.endsWith(".json"));
      expect(kept.length).toBeGreaterThanOrEqual(20);
      expect(pages.length).toBeLessThan(coldPages / 5);
      // The hours still read are the first and the last ones only.
      const now = Math.floor(Date.now() / 1000);
      for (const page of pages.slice(0, pages.length / 2)) {
        expect(page.fromTimestamp < now - 86_400 + 3_600 || page.fromTimestamp > now - 3 * 3_600).toBe(true);
      }
      // Kept files gone from under the server (another process's cleanup): rendered again.
      for (const name of kept) rmSync(join(dir, keptDir!, name));
      const again = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      expect(again.body.toString("utf8")).toBe(expected);
      // A limited page is read as before, never from the disk.
      pages.length = 0;
      const limited = await rawRequest(`${cached.baseUrl}/api/swaps_24h?limit=604`);
      expect(limited.body.toString("utf8")).toBe(expected);
      expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(604 / 7));
    } finally {
      await cached.close();
    }
    // Closing the server removes what it kept.
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: settled hours are rendered in the background, so the first download reads only the moving ends, the same bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const pages: TradePageQuery[] = [];
    const counting = Object.assign(Object.create(fixture.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        // The bsc list's reads (the background also renders the fixture's other network).
        if (network === "bsc") pages.push(query);
        return fixture.reader.listTrades(network, query);
      },
    });
    const rendered = () =>
      readEventCounts("swap_hours_rendered")
        .filter((c) => c.labels.by === "background")
        .reduce((sum, c) => sum + c.value, 0);
    const before = rendered();
    const cached = await startServer(counting, {
      listen: true,
      swapsPageSize: 7,
      sharedListMaxChars: 0,
      swapsCacheDir: dir,
      swapsWarmIntervalMs: 20,
    });
    try {
      const expected = JSON.stringify(await graphqlList(api, fixture.head.bsc.toString()));
      const keptFiles = () => {
        const [keptDir] = readdirSync(dir);
        return keptDir === undefined
          ? []
          : readdirSync(join(dir, keptDir)).filter((n) => n.startsWith("bsc-") && n.endsWith(".json"));
      };
      // Every settled hour (the fixture's 23 hours but the window's first and the last two), by
      // the server's rule at the fixture's data age.
      const status = await api.call("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ networkStatus(network: bsc) { dataAgeSeconds } }" }),
      });
      const { dataAgeSeconds } = (status.body as { data: { networkStatus: { dataAgeSeconds: number } } }).data
        .networkStatus;
      const at = Math.floor(Date.now() / 1000);
      const settled = hoursOf(at - 86_400, at)
        .slice(1)
        .filter((start) => isSettledHour(start, at - dataAgeSeconds)).length;
      expect(settled).toBeGreaterThanOrEqual(20);
      await waitFor(() => keptFiles().length >= settled, 30_000, "settled hours rendered in the background");
      expect(rendered() - before).toBeGreaterThanOrEqual(settled);
      pages.length = 0;
      const first = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      expect(first.body.toString("utf8")).toBe(expected);
      // No settled hour is read by the download: only the window's first hour and the last ones.
      const now = Math.floor(Date.now() / 1000);
      expect(pages.length).toBeGreaterThan(0);
      for (const page of pages) {
        expect(page.fromTimestamp < now - 86_400 + 3_600 || page.fromTimestamp > now - 3 * 3_600).toBe(true);
      }
    } finally {
      await cached.close();
    }
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});
