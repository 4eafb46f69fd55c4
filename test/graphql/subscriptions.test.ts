import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pino } from "pino";
import postgres from "postgres";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { NATIVE, type Trade } from "../../src/domain/types.js";
import { MAX_REPLAYED_SWAPS } from "../../src/graphql/subscriptions/subscribeSwaps.js";
import { createPostgresStore } from "../../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { createTestServer, startServer } from "../http/support.js";
import {
  chainHead as headOf,
  mine,
  revert,
  sendSwap,
  sendV3Swap,
  snapshot,
  startTestDevnet,
} from "../support/devnet.js";
import { BSC, createFixtureReader, nextTxHash, POOLS, TRADERS } from "../support/fixtureReader.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { type SseResult, type SseSubscription, subscribeSse } from "../support/sse.js";
import { PG_URL, pgAvailable } from "../support/testStores.js";
import { waitFor } from "../support/waitFor.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";

// The real path: anvil -> indexer (SQLite writer; PostgreSQL writer + an API replica following
// it) -> live views -> yoga behind the Fastify edge -> SSE over a real socket.
const silent = { info() {}, warn() {}, error() {} };
const quiet = pino({ level: "silent" });
const pgSchema = `t_${randomBytes(6).toString("hex")}`;

interface Served {
  name: string;
  indexing: Indexing;
  store: Store;
  server: Server;
  base: string;
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;
const served: Served[] = [];
const open: SseSubscription[] = [];

const SWAP_FIELDS = `type network blockNumber swaps {
  txHash logIndex blockNumber sender volumeUSD
  sell { token { address } amount } buy { token { address } amount } }`;

async function serve(name: string, store: Store, role: "all" | "api"): Promise<Served> {
  const indexing = createIndexing({ networks: [config], store, log: silent, role, lockRetryMs: 60_000 });
  const { server } = await createTestServer(indexing.views, { logger: quiet });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  indexing.start();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entry = { name, indexing, store, server, base };
  served.push(entry);
  return entry;
}

async function sse(base: string, query: string, variables: Record<string, unknown> = {}) {
  const subscription = await subscribeSse(base, query, variables);
  open.push(subscription);
  return subscription;
}

/** The feed events of a swaps subscription so far. */
function feedOf(subscription: SseSubscription) {
  return subscription.results.map((result: SseResult) => {
    expect(result.errors).toBeUndefined();
    return (result.data as { swaps: FeedEvent }).swaps;
  });
}

interface FeedSwap {
  txHash: string;
  logIndex: number;
  blockNumber: string;
  sender: string;
  volumeUSD: string;
  sell: { token: { address: string }; amount: string };
  buy: { token: { address: string }; amount: string };
}
interface FeedEvent {
  type: "ADDED" | "REMOVED";
  network: string;
  blockNumber: string;
  swaps: FeedSwap[];
}

function sentHashes(subscription: SseSubscription, type: "ADDED" | "REMOVED"): string[] {
  return feedOf(subscription)
    .filter((event) => event.type === type)
    .flatMap((event) => event.swaps.map((swap) => swap.txHash));
}

/** What the API must say of a stored trade. */
function expected(trade: Trade): FeedSwap {
  return {
    txHash: trade.txHash,
    logIndex: trade.logIndex,
    blockNumber: trade.blockNumber.toString(),
    sender: trade.sender,
    volumeUSD: formatDecimal(trade.volumeUsd, 18),
    sell: { token: { address: trade.tokenIn }, amount: trade.amountIn.toString() },
    buy: { token: { address: trade.tokenOut }, amount: trade.amountOut.toString() },
  };
}

async function caughtUp(entry: Served): Promise<void> {
  const head = await chainHead();
  await waitUntilIndexed(entry.indexing.views, "bsc", {
    to: head,
    also: () => entry.indexing.views.poolsBlock("bsc") === head,
    timeoutMs: 60_000,
    what: `${entry.name} at block ${head}`,
  });
}

const chainHead = () => headOf(chain.rpcUrl);

async function gql(base: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: Record<string, unknown>; errors?: unknown[] };
}

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 23 });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
  const sqlite = createSqliteStore({ path: ":memory:" });
  await sqlite.migrate();
  await serve("writer (sqlite)", sqlite, "all");
  if (pgAvailable) {
    const writerStore = createPostgresStore({ url: PG_URL, schema: pgSchema });
    await writerStore.migrate();
    await serve("writer (postgres)", writerStore, "all");
    await serve("replica (postgres)", createPostgresStore({ url: PG_URL, schema: pgSchema }), "api");
  }
  for (const entry of served) await caughtUp(entry);
}, 180_000);

afterAll(async () => {
  for (const subscription of open) subscription.close();
  for (const entry of served) {
    await new Promise<void>((resolve) => {
      entry.server.close(() => resolve());
      entry.server.closeAllConnections();
    });
    await entry.indexing.stop();
    await entry.store.close();
  }
  await devnet?.stop();
  if (pgAvailable) {
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
    await sql.end({ timeout: 1 });
  }
});

describe("Subscription.swaps over SSE", () => {
  test("behavior: a swap mined on anvil arrives on every server with what the store holds", async () => {
    const subscriptions = await Promise.all(
      served.map((entry) => sse(entry.base, `subscription { swaps(network: bsc) { ${SWAP_FIELDS} } }`)),
    );
    for (const subscription of subscriptions) {
      expect(subscription.status).toBe(200);
      expect(subscription.headers.get("content-type")).toMatch(/^text\/event-stream/);
      // Sent as it happens: never held back by a compressor (the client accepts gzip).
      expect(subscription.headers.get("content-encoding") ?? "none").toBe("none");
    }
    const hash = await sendSwap(chain, { path: [NATIVE, "USDT"], amountIn: 10n ** 17n });
    for (const [i, subscription] of subscriptions.entries()) {
      await waitFor(
        () => sentHashes(subscription, "ADDED").includes(hash),
        20_000,
        `${served[i]!.name} feed`,
      );
    }
    const stored = (await listAllTrades(served[0]!.store, "bsc", 0)).filter((trade) => trade.txHash === hash);
    expect(stored).toHaveLength(1);
    for (const subscription of subscriptions) {
      const event = feedOf(subscription).find((e) => e.swaps.some((swap) => swap.txHash === hash))!;
      expect(event).toMatchObject({ type: "ADDED", network: "bsc" });
      expect(BigInt(event.blockNumber)).toBeGreaterThanOrEqual(stored[0]!.blockNumber);
      expect(event.swaps).toEqual([expected(stored[0]!)]);
      subscription.close();
    }
  });

  test("behavior: only swaps of the trader or token asked for are sent", async () => {
    const [writer] = served;
    const traderA = chain.traders[1] as Address;
    const traderB = chain.traders[2] as Address;
    const byTrader = await sse(
      writer!.base,
      `subscription($t: String) { swaps(network: bsc, trader: $t) { ${SWAP_FIELDS} } }`,
      { t: traderA.toUpperCase().replace("0X", "0x") },
    );
    const byToken = await sse(
      writer!.base,
      `subscription { swaps(network: bsc, token: "cake") { ${SWAP_FIELDS} } }`,
    );
    const all = await sse(writer!.base, `subscription { swaps(network: bsc) { ${SWAP_FIELDS} } }`);
    // Both in one block: one commit, one store read, three differently filtered answers.
    const a = await sendSwap(chain, {
      path: [NATIVE, "USDT"],
      amountIn: 2n * 10n ** 17n,
      trader: traderA,
      mine: false,
    });
    const b = await sendSwap(chain, {
      path: [NATIVE, "CAKE"],
      amountIn: 3n * 10n ** 17n,
      trader: traderB,
      mine: false,
    });
    await mine(chain.rpcUrl);
    await waitFor(() => sentHashes(all, "ADDED").length === 2, 20_000, "both swaps");
    expect(sentHashes(all, "ADDED").sort()).toEqual([a, b].sort());
    await waitFor(() => sentHashes(byTrader, "ADDED").length > 0 && sentHashes(byToken, "ADDED").length > 0);
    expect(sentHashes(byTrader, "ADDED")).toEqual([a]);
    expect(sentHashes(byToken, "ADDED")).toEqual([b]);
    expect(feedOf(byTrader)[0]!.swaps[0]!.sender).toBe(traderA.toLowerCase());
  });

  test("behavior: a reorg withdraws the swaps sent from the old branch, then sends the new one", async () => {
    const subscriptions = await Promise.all(
      served.map((entry) => sse(entry.base, `subscription { swaps(network: bsc) { ${SWAP_FIELDS} } }`)),
    );
    const id = await snapshot(chain.rpcUrl);
    const ancestor = await chainHead();
    const orphaned = [
      await sendSwap(chain, {
        path: [NATIVE, "USDT"],
        amountIn: 11n * 10n ** 16n,
        trader: chain.traders[3] as Address,
      }),
      await sendSwap(chain, {
        path: [NATIVE, "USDC"],
        amountIn: 12n * 10n ** 16n,
        trader: chain.traders[4] as Address,
      }),
    ];
    for (const subscription of subscriptions) {
      await waitFor(() => orphaned.every((hash) => sentHashes(subscription, "ADDED").includes(hash)), 20_000);
    }
    await revert(chain.rpcUrl, id);
    const canonical: string[] = [];
    for (const [i, amount] of [13n, 14n, 15n].entries()) {
      canonical.push(
        await sendSwap(chain, {
          path: [NATIVE, "BUSD"],
          amountIn: amount * 10n ** 16n,
          trader: chain.traders[5 + i] as Address,
        }),
      );
    }
    for (const [i, subscription] of subscriptions.entries()) {
      await waitFor(
        () => canonical.every((hash) => sentHashes(subscription, "ADDED").includes(hash)),
        30_000,
        `${served[i]!.name}: the new branch`,
      );
      const events = feedOf(subscription);
      const removed = events.findIndex((event) => event.type === "REMOVED");
      expect(removed, `${served[i]!.name} sent a REMOVED event`).toBeGreaterThanOrEqual(0);
      const removal = events[removed]!;
      expect(
        removal.swaps.map((swap) => swap.txHash).sort(),
        `${served[i]!.name}: removed above ${removal.blockNumber}, ancestor ${ancestor}`,
      ).toEqual([...orphaned].sort());
      // Everything sent above the common ancestor is withdrawn, exactly that.
      expect(BigInt(removal.blockNumber)).toBe(ancestor);
      // The new branch comes after the removal, and nothing orphaned is sent again.
      const after = events.slice(removed + 1).flatMap((event) => event.swaps.map((swap) => swap.txHash));
      expect(after).toEqual(expect.arrayContaining(canonical));
      expect(after.filter((hash) => (orphaned as string[]).includes(hash))).toEqual([]);
    }
    // What was finally sent equals the store's trades of those blocks.
    const stored = (await listAllTrades(served[0]!.store, "bsc", 0)).filter(
      (trade) => trade.blockNumber > ancestor,
    );
    expect(stored.map((trade) => trade.txHash)).toEqual(canonical);
  });

  test("behavior: resumed with afterBlock, every server sends the stored swaps after that block, then the live ones, each once", async () => {
    for (const entry of served) await caughtUp(entry);
    const from = await chainHead();
    // Swaps made while the client was away: three blocks, one with two swaps.
    const missed = [
      await sendSwap(chain, {
        path: [NATIVE, "USDT"],
        amountIn: 13n * 10n ** 16n,
        trader: chain.traders[5] as Address,
      }),
      await sendSwap(chain, {
        path: [NATIVE, "CAKE"],
        amountIn: 14n * 10n ** 16n,
        trader: chain.traders[6] as Address,
        mine: false,
      }),
      await sendSwap(chain, {
        path: ["USDT", NATIVE],
        amountIn: 50n * 10n ** 18n,
        trader: chain.traders[7] as Address,
      }),
      await sendSwap(chain, {
        path: [NATIVE, "USDC"],
        amountIn: 15n * 10n ** 16n,
        trader: chain.traders[5] as Address,
      }),
    ];
    for (const entry of served) await caughtUp(entry);
    const stored = (await listAllTrades(served[0]!.store, "bsc", 0)).filter(
      (trade) => trade.blockNumber > from,
    );
    expect(stored.map((trade) => trade.txHash)).toEqual(missed);
    const query = `subscription($after: BigInt, $t: String) { swaps(network: bsc, afterBlock: $after, trader: $t) { ${SWAP_FIELDS} } }`;
    const resumed = await Promise.all(
      served.map((entry) => sse(entry.base, query, { after: from.toString() })),
    );
    const byTrader = await sse(served[0]!.base, query, { after: from.toString(), t: chain.traders[5] });
    // Ahead of the server's indexed block: nothing to replay, and nothing at or below it later.
    const ahead = await sse(served[0]!.base, query, { after: (from + 100n).toString() });
    for (const [i, subscription] of resumed.entries()) {
      await waitFor(
        () => sentHashes(subscription, "ADDED").length === missed.length,
        20_000,
        served[i]!.name,
      );
      expect(feedOf(subscription).flatMap((event) => event.swaps)).toEqual(stored.map(expected));
    }
    await waitFor(() => sentHashes(byTrader, "ADDED").length === 2, 20_000, "the trader's swaps");
    expect(sentHashes(byTrader, "ADDED")).toEqual([missed[0], missed[3]]);

    // Then live, after the replayed ones, none of them twice.
    const live = await sendSwap(chain, {
      path: [NATIVE, "USDT"],
      amountIn: 16n * 10n ** 16n,
      trader: chain.traders[5] as Address,
    });
    for (const subscription of [...resumed, byTrader]) {
      await waitFor(() => sentHashes(subscription, "ADDED").includes(live), 20_000, "the live swap");
    }
    for (const subscription of resumed) expect(sentHashes(subscription, "ADDED")).toEqual([...missed, live]);
    expect(sentHashes(byTrader, "ADDED")).toEqual([missed[0], missed[3], live]);
    expect(sentHashes(ahead, "ADDED")).toEqual([]);
    for (const subscription of [...resumed, byTrader, ahead]) subscription.close();
  });

  test("behavior: a client that goes away is unsubscribed", async () => {
    const { indexing, base } = served[0]!;
    for (const subscription of open) subscription.close();
    await waitFor(() => indexing.views.feed.listenerCount("bsc") === 0, 10_000, "no listeners");
    const subscription = await sse(base, `subscription { swaps(network: bsc) { ${SWAP_FIELDS} } }`);
    await waitFor(() => indexing.views.feed.listenerCount("bsc") === 1, 10_000, "one listener");
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^swapgraph_subscriptions\{network="bsc"\} 1$/m);
    subscription.close();
    await waitFor(() => indexing.views.feed.listenerCount("bsc") === 0, 10_000, "the listener gone");
  });

  test("error: a bad filter is refused with BAD_REQUEST before anything is sent", async () => {
    const { base } = served[0]!;
    for (const [filter, message] of [
      ['token: "NOPE"', /NOPE/],
      ['trader: "0x123"', /trader must be an address/],
      ['afterBlock: "-1"', /afterBlock must not be negative/],
    ] as const) {
      const subscription = await sse(base, `subscription { swaps(network: bsc, ${filter}) { type } }`);
      await subscription.ended;
      expect(subscription.results).toHaveLength(1);
      const [error] = subscription.results[0]!.errors ?? [];
      expect(error?.extensions?.code).toBe("BAD_REQUEST");
      expect(error?.message).toMatch(message);
    }
  });
});

describe("Subscription.swaps resumed far back", () => {
  test("error: more than 10,000 swaps to resume with end the stream with BAD_REQUEST; a filter that leaves fewer resumes", async () => {
    // A real store and views (the fixture), one block of MAX_REPLAYED_SWAPS + 1 swaps.
    const fixture = await createFixtureReader();
    // The stream is read over SSE: a real socket.
    const api = await startServer(fixture.reader, { listen: true });
    try {
      const from = fixture.head.bsc;
      const trades: Trade[] = Array.from({ length: MAX_REPLAYED_SWAPS + 1 }, (_, i) => ({
        network: "bsc",
        txHash: nextTxHash(),
        logIndex: 0,
        blockNumber: from + 1n,
        timestamp: fixture.now,
        txIndex: i,
        sender: i === 7 ? TRADERS.carol : TRADERS.alice,
        tokenIn: BSC.USDT,
        amountIn: 10n ** 18n,
        tokenOut: BSC.USDC,
        amountOut: 10n ** 18n,
        volumeUsd: 10n ** 18n,
        tracked: true,
        pools: [POOLS.USDC_USDT],
      }));
      await fixture.commit("bsc", trades);
      const query = `subscription($after: BigInt, $t: String) { swaps(network: bsc, afterBlock: $after, trader: $t) { type swaps { txHash } } }`;
      const tooMany = await subscribeSse(api.baseUrl, query, { after: from.toString() });
      await tooMany.ended;
      const [error] = tooMany.results.at(-1)?.errors ?? [];
      expect(error?.extensions?.code).toBe("BAD_REQUEST");
      expect(error?.message).toMatch(/More than 10000 swaps follow afterBlock/);
      const one = await subscribeSse(api.baseUrl, query, { after: from.toString(), t: TRADERS.carol });
      await waitFor(() => one.results.length === 1, 10_000, "the trader's swap");
      expect(one.results[0]!.data).toEqual({
        swaps: { type: "ADDED", swaps: [{ txHash: trades[7]!.txHash }] },
      });
      one.close();
    } finally {
      await api.close();
      await fixture.close();
    }
  });
});

describe("Subscription.networkStatus and Subscription.quote", () => {
  test("behavior: the status is sent at once and again at each newly indexed block", async () => {
    for (const entry of served) {
      await caughtUp(entry);
      const subscription = await sse(
        entry.base,
        "subscription { networkStatus(network: bsc) { network indexedBlock ready serving dataAgeSeconds } }",
      );
      await waitFor(() => subscription.results.length >= 1, 10_000);
      const first = subscription.results[0]!.data!.networkStatus as {
        indexedBlock: string;
        serving: boolean;
      };
      expect(first).toMatchObject({ serving: true, indexedBlock: (await chainHead()).toString() });
      await mine(chain.rpcUrl);
      const next = (await chainHead()).toString();
      await waitFor(
        () =>
          subscription.results.some(
            (result) =>
              (result.data?.networkStatus as { indexedBlock: string } | undefined)?.indexedBlock === next,
          ),
        20_000,
        `${entry.name}: status at block ${next}`,
      );
      subscription.close();
    }
  });

  test("behavior: a quote is sent at once and again when a swap moves it, equal to Query.quote", async () => {
    const { base } = served[0]!;
    await caughtUp(served[0]!);
    const fields = "buyAmount price blockNumber route { pools { address } }";
    const subscription = await sse(
      base,
      `subscription { quote(network: bsc, sellToken: "BNB", buyToken: "USDT") { ${fields} } }`,
    );
    await waitFor(() => subscription.results.length >= 1, 10_000);
    const quoteNow = async () =>
      (await gql(base, `{ quote(network: bsc, sellToken: "BNB", buyToken: "USDT") { ${fields} } }`)).data
        .quote;
    expect(subscription.results[0]!.data!.quote).toEqual(await quoteNow());
    // An empty block changes nothing: no new quote.
    await mine(chain.rpcUrl);
    await caughtUp(served[0]!);
    // A swap selling BNB for USDT in the quote's own first pool (V2 or V3) moves the price down.
    const first = (
      subscription.results[0]!.data!.quote as { route: { pools: { address: string }[] } }
    ).route.pools[0]!.address.toLowerCase();
    if (chain.v3?.pools.some((p) => p.address === first)) {
      await sendV3Swap(chain, { pool: first as Address, tokenIn: chain.wrapped, amountIn: 5n * 10n ** 18n });
    } else {
      await sendSwap(chain, { path: [NATIVE, "USDT"], amountIn: 5n * 10n ** 18n });
    }
    await waitFor(() => subscription.results.length >= 2, 20_000, "a second quote");
    await caughtUp(served[0]!);
    const [before, after] = subscription.results.map((result) => result.data!.quote as { buyAmount: string });
    expect(subscription.results).toHaveLength(2);
    expect(BigInt(after!.buyAmount)).toBeLessThan(BigInt(before!.buyAmount));
    expect(after).toEqual(await quoteNow());
  });

  test("error: a quote of an unknown token ends the stream with BAD_REQUEST", async () => {
    const subscription = await sse(
      served[0]!.base,
      `subscription { quote(network: bsc, sellToken: "NOPE", buyToken: "USDT") { price } }`,
    );
    await subscription.ended;
    expect(subscription.results.at(-1)?.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });
});

describe("shutdown", () => {
  test("behavior: closing the feed completes every open subscription", async () => {
    const { indexing, base } = served[0]!;
    const subscriptions = [
      await sse(base, `subscription { swaps(network: bsc) { type } }`),
      await sse(base, "subscription { networkStatus(network: bsc) { indexedBlock } }"),
    ];
    await waitFor(() => indexing.views.feed.listenerCount("bsc") >= 2, 10_000);
    indexing.views.feed.close();
    await Promise.all(subscriptions.map((subscription) => subscription.ended));
    expect(indexing.views.feed.listenerCount("bsc")).toBe(0);
  });
});
