import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { getHeapStatistics } from "node:v8";
import { execute, parse } from "graphql";
import { pino } from "pino";
import postgres from "postgres";
import type { NetworkConfig } from "../src/config/types.js";
import type { TradePosition } from "../src/domain/market.js";
import type { Address, Hash, Token, TokenRef, Trade } from "../src/domain/types.js";
import { createGraphqlContext } from "../src/graphql/context/createGraphqlContext.js";
import { createGraphqlServer } from "../src/graphql/createGraphqlServer.js";
import { buildSchema } from "../src/graphql/schema/buildSchema.js";
import { createHttpServer } from "../src/http/createHttpServer.js";
import { createPostgresStore } from "../src/store/postgres/createPostgresStore.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import { createSettledSwapHours } from "../src/views/answers/createSettledSwapHours.js";
import { hoursOf } from "../src/views/answers/swapHours.js";
import type { AmountFields, SwapNode } from "../src/views/answers/swapRow.js";
import { createLiveViews } from "../src/views/createLiveViews.js";
import { SWAPS_OPERATION } from "../test/support/readAnswersThroughGraphql.js";

/**
 * The server of bench/list.ts, in a process of its own: a SQLite store (a file, as in
 * production), or with BENCH_LIST_DATABASE_URL a PostgreSQL store in a schema of its own (dropped
 * at the end), filled through the store API with BENCH_LIST_SIZE synthetic bsc trades over the
 * last 23 hours (many tokens, multi-hop routes, the native coin on some sides; the blocks of the
 * unfinalized window stored, as the indexer stores them), read through the live views and served
 * by the real HTTP server twice: rendering every list, and with the settled hours the views keep
 * on disk (createSettledSwapHours, rendered before the URLs are printed: how long that took is
 * printed with them). It prints their URLs, then answers commands on stdin with one JSON line
 * each: `raw` (the store's page read of the same window, pages of 1,000), `memory` (the heap's
 * peak while serving), `cpu` (the CPU time it used so far), `previous` (the GraphQL path without
 * HTTP: graphql-js execute() of the swaps operation the list ran before it read the views, in
 * pages of 250, each page rendered with JSON.stringify of the spec objects, and the SHA-256 of the
 * list's bytes).
 */
const size = Number(process.env.BENCH_LIST_SIZE ?? 100_000);
const E18 = 10n ** 18n;
const DAY = 86_400;
const SPAN = 23 * 3_600;
const TRADES_PER_BLOCK = 20;
const TOKENS = 200;

// A seeded generator: every run serves the same market.
let seed = 0x2545f491;
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const hex = (length: number) => {
  let text = "";
  while (text.length < length)
    text += Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return text.slice(0, length);
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const WBNB: Address = "0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c";
const tokens: Token[] = Array.from({ length: TOKENS }, (_, i) => ({
  address: `0x${hex(40)}` as Address,
  name: `Bench Token ${i}`,
  symbol: `BT${i}`,
  decimals: [18, 18, 18, 6, 8, 9][i % 6]!,
}));
const pools: Address[] = Array.from({ length: 400 }, () => `0x${hex(40)}` as Address);
const traders: Address[] = Array.from({ length: 1_000 }, () => `0x${hex(40)}` as Address);

const config: NetworkConfig = {
  name: "bsc",
  chainId: 56,
  rpcUrls: ["http://127.0.0.1:1"],
  native: { name: "BNB", symbol: "BNB", aliases: [], decimals: 18, wrapped: WBNB },
  dexes: [
    {
      name: "PancakeSwap V2",
      kind: "uniswap-v2",
      factory: "0xca143ce32fe78f1f7019d7d551a6402fc5350c73",
      feeBps: 25,
    },
  ],
  tokenList: {
    name: "bench",
    timestamp: "2024-01-01T00:00:00Z",
    version: { major: 1, minor: 0, patch: 0 },
    tokens: [],
  },
  stablecoins: [],
  baseTokens: [WBNB],
  minLiquidityUsd: 1_000n * E18,
  windowDays: 7,
  finalityDepth: 15,
  pollIntervalMs: 1_000,
  maxLogRange: 1_000,
  // The bench runs longer than a poll: the data must not go stale meanwhile.
  maxStalenessSeconds: 86_400,
  rpc: { timeoutMs: 10_000, requestsPerSecond: 0, costModel: "computeUnits" },
};

const now = Math.floor(Date.now() / 1000);
const blocks = Math.ceil(size / TRADES_PER_BLOCK);
const firstBlock = 40_000_000n;
const head = firstBlock + BigInt(blocks - 1);
const blockHash = (block: bigint): Hash => `0x${block.toString(16).padStart(64, "0")}`;

const timestampOf = (block: number) => now - SPAN + Math.floor((block * SPAN) / blocks);

function tradesOf(block: number): Trade[] {
  const count = Math.min(TRADES_PER_BLOCK, size - block * TRADES_PER_BLOCK);
  const timestamp = timestampOf(block);
  return Array.from({ length: count }, (_, i): Trade => {
    const hops = 1 + Math.floor(random() * 3);
    const tokenIn: TokenRef = random() < 0.1 ? "" : pick(tokens).address;
    const tokenOut: TokenRef = random() < 0.1 ? "" : pick(tokens).address;
    const tracked = random() < 0.9;
    return {
      network: "bsc",
      txHash: `0x${hex(64)}` as Hash,
      blockNumber: firstBlock + BigInt(block),
      timestamp,
      txIndex: i,
      logIndex: i * 4,
      sender: pick(traders),
      tokenIn,
      amountIn: BigInt(Math.floor(random() * 1e9)) * 10n ** BigInt(Math.floor(random() * 16)) + 1n,
      tokenOut,
      amountOut: BigInt(Math.floor(random() * 1e9)) * 10n ** BigInt(Math.floor(random() * 16)) + 1n,
      volumeUsd: tracked ? BigInt(Math.floor(random() * 1e9)) * 10n ** 12n : 0n,
      tracked,
      pools: Array.from({ length: hops }, () => pick(pools)),
    };
  });
}

const dir = mkdtempSync(join(tmpdir(), "swapgraph-bench-list-"));
const databaseUrl = process.env.BENCH_LIST_DATABASE_URL;
const pgSchema = `bench_list_${randomBytes(4).toString("hex")}`;
const store =
  databaseUrl === undefined
    ? createSqliteStore({ path: join(dir, "swapgraph.sqlite") })
    : createPostgresStore({ url: databaseUrl, schema: pgSchema });
await store.migrate();
if (!(await store.tryAcquireWriter("bsc"))) throw new Error("the bench store's writer lock is taken");
// Committed as the indexer commits: ranges of blocks, each in one transaction, with the range's
// last block and the blocks of the unfinalized window (what MarketReader.settledBefore reads).
const unfinalized = blocks - 1 - config.finalityDepth;
for (let from = 0; from < blocks; from += 500) {
  const to = Math.min(blocks, from + 500);
  const trades: Trade[] = [];
  for (let block = from; block < to; block++) trades.push(...tradesOf(block));
  const last = firstBlock + BigInt(to - 1);
  const stored = Array.from({ length: to - from }, (_, i) => from + i).filter(
    (block) => block === to - 1 || block >= unfinalized,
  );
  await store.commitRange("bsc", {
    checkpoint: { blockNumber: last, blockHash: blockHash(last) },
    blocks: stored.map((block) => ({
      number: firstBlock + BigInt(block),
      hash: blockHash(firstBlock + BigInt(block)),
      parentHash: blockHash(firstBlock + BigInt(block) - 1n),
      timestamp: timestampOf(block),
    })),
    pairs: [],
    reserves: [],
    trades,
  });
}
const views = createLiveViews([config], store);
const checkpoint = { blockNumber: head, blockHash: blockHash(head) };
views.load("bsc", { tokens, pools: [], checkpoint });
views.markIndexed("bsc", checkpoint);
const syncedAt = Date.now();
views.setStatus("bsc", {
  ready: true,
  indexedBlock: head,
  headBlock: head,
  headCheckedAt: syncedAt,
  syncedAt,
  halted: false,
  error: undefined,
});
// The head is checked "now" for the whole run: the views must not find the network degraded.
const keepFresh = setInterval(() => views.setStatus("bsc", { headCheckedAt: Date.now() }), 1_000);

const silent = pino({ level: "silent" });
const schema = buildSchema();
const pageSize = process.env.BENCH_LIST_PAGE;
/** A server over the views: with `swapHours`, settled hours of the list are read from the disk. */
async function serve(swapHours?: ReturnType<typeof createSettledSwapHours>) {
  const { server } = await createHttpServer({
    ...(pageSize === undefined ? {} : { swapsPageSize: Number(pageSize) }),
    ...(swapHours === undefined ? {} : { swapHours }),
    reader: views,
    graphql: createGraphqlServer({ reader: views, schema, logger: silent }),
    logger: silent,
    // One client downloads the whole list again and again: the list budget would refuse it (429).
    listBudget: { bytesPerSecond: 0, burstBytes: 0 },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
// The views render the settled hours once (they have all settled but the last minutes): timed here,
// before any download, so that no download is measured while they render.
const keepStarted = performance.now();
const keepCpu = process.cpuUsage();
const swapHours = createSettledSwapHours({
  views,
  dir: join(dir, "hours"),
  ...(pageSize === undefined ? {} : { pageSize: Number(pageSize) }),
});
await swapHours.idle();
const kept = {
  ms: performance.now() - keepStarted,
  cpuMs: (process.cpuUsage(keepCpu).user + process.cpuUsage(keepCpu).system) / 1000,
  hours: hoursOf(now - DAY, now).filter((start) => swapHours.find("bsc", start, head) !== undefined).length,
};
const rendering = await serve();
const keeping = await serve(swapHours);

/** The store's own page read of the window the API lists (what the answer's rows cost to read). */
async function measureRaw(): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  let after: TradePosition | undefined;
  for (;;) {
    const page = await views.listTrades("bsc", {
      fromTimestamp: Math.floor(Date.now() / 1000) - DAY,
      maxBlock: head,
      limit: 1_001,
      ...(after === undefined ? {} : { after }),
    });
    rows += Math.min(page.length, 1_000);
    if (page.length <= 1_000) break;
    const last = page[999]!;
    after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
  }
  return { rows, ms: performance.now() - started };
}

const side = (s: AmountFields) => ({
  name: s.token.name,
  symbol: s.token.symbol,
  decimals: String(s.token.decimals),
  address: s.token.address,
  amount: s.amount,
  amount_decimal: s.amountDecimal,
});

/**
 * The previous path: graphql-js execute() page by page and JSON.stringify of the spec objects,
 * with the SHA-256 of the array's bytes those pages make (the answer must have the same).
 */
async function measurePrevious(): Promise<{ rows: number; ms: number; sha256: string }> {
  const document = parse(SWAPS_OPERATION);
  const started = performance.now();
  const context = createGraphqlContext(views, { nowMs: Date.now() });
  const variables: Record<string, unknown> = {
    network: "bsc",
    from: context.now - DAY,
    atBlock: head.toString(),
    first: 250,
    after: null,
  };
  let rows = 0;
  const hash = createHash("sha256").update("[");
  for (;;) {
    const result = await execute({ schema, document, variableValues: variables, contextValue: context });
    if (result.errors !== undefined) throw result.errors[0];
    const page = (
      result.data as {
        swaps: { edges: { node: SwapNode }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
      }
    ).swaps;
    const bodies = page.edges.map(({ node }) => ({
      tx_hash: node.txHash,
      block_number: node.blockNumber,
      sell_token: side(node.sell),
      buy_token: side(node.buy),
      trade_volume_usd: node.volumeUSD,
    }));
    const text = JSON.stringify(bodies);
    // The page's elements, after a comma unless they are the list's first.
    if (bodies.length > 0) hash.update(Buffer.from((rows > 0 ? "," : "") + text.slice(1, -1)));
    rows += bodies.length;
    if (!page.pageInfo.hasNextPage) break;
    variables.after = page.pageInfo.endCursor;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const ms = performance.now() - started;
  return { rows, ms, sha256: hash.update("]").digest("hex") };
}

// The heap's peak while lists stream, sampled: a list must stream page by page, not be held whole.
global.gc?.();
const baseHeap = getHeapStatistics().used_heap_size;
let peakHeap = baseHeap;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
}, 10);
const memory = () => {
  const peakHeapMb = peakHeap / 2 ** 20;
  // What the downloads left behind: garbage aside, nothing of a list stays.
  global.gc?.();
  return {
    baseHeapMb: baseHeap / 2 ** 20,
    peakHeapMb,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    afterGcMb: getHeapStatistics().used_heap_size / 2 ** 20,
  };
};

process.stdout.write(
  `${JSON.stringify({ url: rendering.url, keptUrl: keeping.url, trades: size, head: head.toString(), kept })}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  const answer =
    line === "raw"
      ? await measureRaw()
      : line === "previous"
        ? await measurePrevious()
        : line === "memory"
          ? memory()
          : line === "cpu"
            ? { cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000 }
            : {};
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
clearInterval(keepFresh);
clearInterval(sampler);
for (const { server } of [rendering, keeping]) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
swapHours.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
if (databaseUrl !== undefined) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`DROP SCHEMA IF EXISTS ${pgSchema} CASCADE`);
  await sql.end({ timeout: 1 });
}
