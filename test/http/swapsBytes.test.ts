import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { NetworkName } from "../../src/domain/types.js";
import { readEventCounts } from "../../src/lib/countEvent.js";
import type { Store } from "../../src/store/types.js";
import { createSettledSwapHours } from "../../src/views/answers/createSettledSwapHours.js";
import { hoursOf, isSettledHour } from "../../src/views/answers/swapHours.js";
import { type SwapNode, toSwapRow } from "../../src/views/answers/swapRow.js";
import type { MarketReader } from "../../src/views/types.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { createTestStores } from "../support/testStores.js";
import { rawRequest, startServer, type TestServer } from "./support.js";

// /api/swaps_24h renders the views' pages straight to bytes (createSwapRowRenderer), settled hours
// once into files (createSettledSwapHours). Its answer must stay the bytes the GraphQL API itself
// gives: each swap of the public `swaps` query (POST /graphql, graphql-js in yoga: neither the
// list's page reader nor its renderer) as the spec's object, the list as JSON.stringify of the array.

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

/** The bsc hours kept under `dir` (their files' paths). */
function keptFiles(dir: string): string[] {
  const [keptDir] = readdirSync(dir);
  return keptDir === undefined
    ? []
    : readdirSync(join(dir, keptDir))
        .filter((name) => name.startsWith("bsc-") && name.endsWith(".json"))
        .map((name) => join(dir, keptDir, name));
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

  test("behavior: settled hours the views rendered are read from the disk: the same bytes, and only the moving ends from the store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const pages: TradePageQuery[] = [];
    const counting = Object.assign(Object.create(fixture.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        pages.push(query);
        return fixture.reader.listTrades(network, query);
      },
    });
    const hours = createSettledSwapHours({ views: fixture.reader, dir, pageSize: 7 });
    const cached = await startServer(counting, {
      listen: true,
      swapsPageSize: 7,
      sharedListMaxChars: 0,
      swapHours: hours,
    });
    try {
      // The fixture's swaps span 23 hours; the last two have not settled.
      const settledBefore = Math.floor(Date.now() / 1000) - 2 * 3_600;
      await fixture.settle("bsc", settledBefore);
      await hours.idle();
      const kept = keptFiles(dir);
      expect(kept.length).toBeGreaterThanOrEqual(20);
      const expected = JSON.stringify(await graphqlList(api, fixture.head.bsc.toString()));
      const full = await rawRequest(`${api.baseUrl}/api/swaps_24h`);
      expect(full.body.toString("utf8")).toBe(expected);
      const fullPages = Math.ceil(604 / 7);
      pages.length = 0;
      const plain = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      const read = pages.slice();
      const packed = await rawRequest(`${cached.baseUrl}/api/swaps_24h`, { "accept-encoding": "gzip" });
      expect(plain.body.toString("utf8")).toBe(expected);
      expect(gunzipSync(packed.body).toString("utf8")).toBe(expected);
      expect(read.length).toBeGreaterThan(0);
      expect(read.length).toBeLessThan(fullPages / 4);
      // The stretches still read are the window's first hour and the hours after the settled ones.
      const now = Math.floor(Date.now() / 1000);
      for (const page of read) {
        expect(page.fromTimestamp < now - 86_400 + 3_600 || page.fromTimestamp >= settledBefore - 3_600).toBe(
          true,
        );
      }
      // Kept files gone from under the server (another process's cleanup): read from the store.
      for (const name of kept) rmSync(name);
      const again = await rawRequest(`${cached.baseUrl}/api/swaps_24h`);
      expect(again.body.toString("utf8")).toBe(expected);
      // A limited page is read as before, never from the disk.
      pages.length = 0;
      const limited = await rawRequest(`${cached.baseUrl}/api/swaps_24h?limit=604`);
      expect(limited.body.toString("utf8")).toBe(expected);
      expect(pages.length).toBeGreaterThanOrEqual(fullPages);
    } finally {
      await cached.close();
      hours.close();
    }
    // Closing the settled hours removes what they kept.
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("settled hours of /api/swaps_24h (SQLite in memory)", () => {
  test("behavior: an hour is rendered once, when the views learn it settled, and read only by lists pinned at or above its last swap", async () => {
    const local = await createFixtureReader({ bulkTrades: 200 });
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const rendered = () =>
      readEventCounts("swap_hours_rendered")
        .filter((c) => c.labels.network === "bsc")
        .reduce((sum, c) => sum + c.value, 0);
    const before = rendered();
    const hours = createSettledSwapHours({ views: local.reader, dir, pageSize: 7 });
    const at = Math.floor(Date.now() / 1000);
    const window = hoursOf(at - 86_400, at).slice(1);
    const kept = () => window.filter((start) => hours.find("bsc", start, local.head.bsc) !== undefined);
    try {
      // Nothing has settled: the store does not hold the oldest block a reorg could replace.
      await hours.idle();
      expect(kept()).toEqual([]);
      await local.settle("bsc", at - 10 * 3_600);
      await hours.idle();
      const settled = window.filter((start) => isSettledHour(start, at - 10 * 3_600));
      expect(settled.length).toBeGreaterThanOrEqual(12);
      expect(kept()).toEqual(settled);
      expect(rendered() - before).toBe(settled.length);
      // A new indexed block renders the hour that settled since, and nothing twice.
      await local.settle("bsc", at - 9 * 3_600);
      await hours.idle();
      expect(kept()).toEqual(window.filter((start) => isSettledHour(start, at - 9 * 3_600)));
      expect(rendered() - before).toBe(settled.length + 1);
      expect(keptFiles(dir)).toHaveLength(settled.length + 1);
      // A list pinned below an hour's last swap reads that hour from the store.
      const hour = hours.find("bsc", settled.at(-1)!, local.head.bsc);
      expect(hour?.rows).toBeGreaterThan(0);
      expect(hours.find("bsc", hour!.start, hour!.lastBlock!)).toBe(hour);
      expect(hours.find("bsc", hour!.start, hour!.lastBlock! - 1n)).toBeUndefined();
      // A network that stops serving drops its hours.
      local.reader.setStatus("bsc", { halted: true });
      await local.settle("bsc", at - 9 * 3_600);
      await hours.idle();
      expect(keptFiles(dir)).toEqual([]);
    } finally {
      hours.close();
      await local.close();
    }
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("behavior: a backfill's commits render the hours they settle before the network is ready; /ready waits for the rest", async () => {
    const local = await createFixtureReader({ bulkTrades: 200, notReady: ["bsc"] });
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const at = local.now;
    const hash = (block: bigint) => `0xb${block.toString(16).padStart(63, "0")}` as const;
    // The fixture's blocks are 3 seconds apart, the newest (the head) at `at`.
    const blockAt = (ago: number) => local.head.bsc - BigInt(Math.floor(ago / 3));
    let gate: Promise<void> | undefined;
    const views = Object.assign(Object.create(local.reader) as typeof local.reader, {
      settledBefore: async (network: NetworkName) => {
        await gate;
        return local.reader.settledBefore(network);
      },
    });
    // A range the backfill commits far from the head: the store keeps only its last block.
    const commitRangeEnd = (number: bigint, timestamp: number) =>
      local.store.commitRange("bsc", {
        checkpoint: { blockNumber: local.head.bsc, blockHash: hash(local.head.bsc) },
        blocks: [{ number, hash: hash(number), parentHash: hash(number - 1n), timestamp }],
        pairs: [],
        reserves: [],
        trades: [],
      });
    const hours = createSettledSwapHours({ views, dir, pageSize: 7 });
    const api = await startServer(local.reader, { swapHours: hours });
    const window = hoursOf(at - 86_400, at).slice(1);
    const kept = () => window.filter((start) => hours.find("bsc", start, local.head.bsc) !== undefined);
    try {
      await hours.idle();
      expect(kept()).toEqual([]);
      // A backfill range commits up to 10 hours ago: as the indexer does far from the head, the
      // store keeps only its last block. The next range is indexed past the finality depth.
      await commitRangeEnd(blockAt(10 * 3_600), at - 10 * 3_600);
      const next = blockAt(9 * 3_600);
      local.reader.markIndexed("bsc", { blockNumber: next, blockHash: hash(next) });
      await hours.idle();
      const settled = window.filter((start) => isSettledHour(start, at - 10 * 3_600));
      expect(settled.length).toBeGreaterThanOrEqual(12);
      expect(kept()).toEqual(settled);
      expect(local.reader.status("bsc").ready).toBe(false);
      expect(hours.caughtUp("bsc")).toBe(false);
      // The next range ends 5 hours ago: the blocks are read from the range end found before on,
      // not all of them again (a week's backfill keeps thousands).
      const reads: (bigint | undefined)[] = [];
      const listBlocks = local.store.listBlocks;
      local.store.listBlocks = (network, fromBlock) => {
        reads.push(fromBlock);
        return listBlocks(network, fromBlock);
      };
      await commitRangeEnd(blockAt(5 * 3_600), at - 5 * 3_600);
      const after = blockAt(4 * 3_600);
      local.reader.markIndexed("bsc", { blockNumber: after, blockHash: hash(after) });
      await hours.idle();
      local.store.listBlocks = listBlocks;
      expect(kept()).toEqual(window.filter((start) => isSettledHour(start, at - 5 * 3_600)));
      expect(reads).toEqual([after - 15n, blockAt(10 * 3_600)]);
      // The backfill reaches the head: hours up to two hours ago settle, still before ready.
      await local.settle("bsc", at - 2 * 3_600);
      await hours.idle();
      const all = window.filter((start) => isSettledHour(start, at - 2 * 3_600));
      expect(all.length).toBeGreaterThan(settled.length);
      expect(kept()).toEqual(all);
      // Ready: /ready answers 200 only once a pass that began after it is done.
      let release = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      local.reader.setStatus("bsc", { ready: true });
      const waiting = await api.call("/ready");
      expect(waiting.status).toBe(503);
      expect(waiting.body).toEqual({
        error: "Not ready: the settled hours of /api/swaps_24h are still being written to disk.",
      });
      release();
      await hours.idle();
      expect(hours.caughtUp("bsc")).toBe(true);
      expect((await api.call("/ready")).status).toBe(200);
      expect(kept()).toEqual(all);
    } finally {
      await api.close();
      hours.close();
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("behavior: the hours are read at the block indexed once it is known what settled, not before", async () => {
    const local = await createFixtureReader({ bulkTrades: 100 });
    const dir = mkdtempSync(join(tmpdir(), "swapgraph-hours-test-"));
    const at = Math.floor(Date.now() / 1000);
    const reads: (bigint | undefined)[] = [];
    let learned: bigint | undefined;
    // Commits land while the store says what settled: the hours must be read at or above them.
    const views = Object.assign(Object.create(local.reader) as typeof local.reader, {
      settledBefore: async (network: NetworkName) => {
        if (learned === undefined) await local.settle("bsc", at - 10 * 3_600);
        learned ??= local.head.bsc;
        return local.reader.settledBefore(network);
      },
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        if (network === "bsc") reads.push(query.maxBlock);
        return local.reader.listTrades(network, query);
      },
    });
    const hours = createSettledSwapHours({ views, dir, pageSize: 7 });
    try {
      await local.settle("bsc", at - 20 * 3_600);
      await hours.idle();
      expect(reads.length).toBeGreaterThan(10);
      expect(reads.filter((block) => block === undefined || block < learned!)).toEqual([]);
    } finally {
      hours.close();
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
