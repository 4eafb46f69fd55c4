import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnet } from "@swapgraph/devnet/startDevnet.js";
import { pino } from "pino";
import { createPublicClient, http } from "viem";
import type { NetworkConfig } from "../src/config/types.js";
import { createIndexing } from "../src/createIndexing.js";
import type { Address, Token, Trade } from "../src/domain/types.js";
import { buildSchema } from "../src/graphql/schema/buildSchema.js";
import { LISTING_ENDPOINTS } from "../src/http/listings/createListingRoutes.js";
import type { PoolState } from "../src/pricing/types.js";
import { createSqliteStore } from "../src/store/sqlite/createSqliteStore.js";
import { renderCmcTrade } from "../src/views/answers/buildPoolTrade.js";
import { readListedMarkets } from "../src/views/answers/readListedMarkets.js";
import { readPoolBook } from "../src/views/answers/readPoolBook.js";
import { openPoolTrades } from "../src/views/answers/readPoolTrades.js";
import { readQuote } from "../src/views/answers/readQuote.js";
import { readTradeVolume7d } from "../src/views/answers/readTradeVolume7d.js";
import { createLiveViews } from "../src/views/createLiveViews.js";
import { createGraphqlExecutor } from "../test/support/createGraphqlExecutor.js";
import * as throughGraphql from "../test/support/readAnswersThroughGraphql.js";

/** One line of the answers table. */
export interface AnswerRow {
  answer: string;
  "views ms": number;
  "GraphQL ms": number;
  "views / GraphQL": string;
  "no worse": string;
}

/** Options of benchAnswers. */
export interface BenchAnswersOptions {
  /** Swaps of the bsc devnet (default 2,400). */
  swaps?: number;
  /** Timed rounds per answer and path, alternated (default 30; the median is reported). */
  rounds?: number;
  /**
   * Pools of a second, synthetic listing (default 0: none): a store of that many V2 pools with
   * trades over the last day, read through the same views and GraphQL operations (see
   * benchSyntheticListing), timed over at most 5 rounds.
   */
  syntheticPools?: number;
}

const DAY = 86_400;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * What issue 27 moved: the answers made in the read model (src/views/answers) against the same
 * answers made through the fixed GraphQL operations that made them before (kept as the test
 * reference, test/support/readAnswersThroughGraphql.ts), in one process on one indexed devnet,
 * each round timing one path then the other (alternating which goes first), the median of each.
 * Every answer is made whole each round (nothing is kept between rounds: no answer store), and both
 * paths' bytes are compared once first, so the two time the same answer.
 */
export async function benchAnswers(options: BenchAnswersOptions = {}): Promise<AnswerRow[]> {
  const rounds = options.rounds ?? 30;
  const dataDir = mkdtempSync(join(tmpdir(), "swapgraph-bench-answers-"));
  const devnet = await startDevnet({
    networks: ["bsc"],
    swapsPerNetwork: options.swaps ?? 2_400,
    traders: 200,
    liveIntervalMs: 0,
    seed: 37,
    dataDir,
  });
  const store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
  const network = config.name;
  const indexing = createIndexing({ networks: [config], store, log: { info() {}, warn() {}, error() {} } });
  try {
    indexing.start();
    const client = createPublicClient({ transport: http(devnet.chains[0]!.rpcUrl) });
    const head = await client.getBlockNumber();
    const views = indexing.views;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const status = views.status(network);
      if (status.halted) throw new Error(`${network} halted: ${status.error}`);
      if (status.ready && status.indexedBlock === head && views.poolsBlock(network) === head) break;
      if (Date.now() > deadline) throw new Error(`${network} not indexed to ${head} in 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const executor = createGraphqlExecutor({
      reader: views,
      schema: buildSchema(),
      logger: pino({ level: "silent" }),
    });
    const listing = throughGraphql.parseListingOperations(executor);
    const poolTrades = throughGraphql.parsePoolTradeOperations(executor);
    const nowMs = Date.now();
    const { markets } = await readListedMarkets(views, network, nowMs);
    // The pool with the most trades of the day: the largest trades answer.
    const from = Math.floor(nowMs / 1000) - DAY;
    let busiest = markets[0]!;
    let most = -1;
    for (const market of markets) {
      const opened = await openPoolTrades(views, network, {
        pairId: market.pairId,
        param: "market_pair",
        nowMs,
      });
      let count = 0;
      for await (const page of opened.pages(from, null)) count += page.length;
      if (count > most) [busiest, most] = [market, count];
    }
    const pair = {
      base: busiest.base.address,
      target: busiest.target.address,
      pool: busiest.pool as Address,
    };
    const book = { ...pair, param: "ticker_id", levels: 50, range: "2" };
    const quote = { network, sellToken: busiest.base.symbol, buyToken: busiest.target.symbol };
    const rendered = async (pages: AsyncIterable<Parameters<typeof renderCmcTrade>[0][]>) => {
      const rows: string[] = [];
      for await (const page of pages) rows.push(...page.map(renderCmcTrade));
      return `[${rows.join(",")}]`;
    };
    const endpoint = LISTING_ENDPOINTS[0]!;
    const answers: { answer: string; views: () => Promise<string>; graphql: () => Promise<string> }[] = [
      {
        answer: `listing ${endpoint.path} (${markets.length} pools)`,
        views: async () =>
          JSON.stringify(endpoint.build((await readListedMarkets(views, network, nowMs)).markets)),
        graphql: async () =>
          JSON.stringify(
            endpoint.build(
              (await throughGraphql.readListedMarkets(executor.session(nowMs), listing, network)).markets,
            ),
          ),
      },
      {
        answer: `pool trades, 24 h (${most} trades)`,
        views: async () => {
          const opened = await openPoolTrades(views, network, {
            pairId: busiest.pairId,
            param: "market_pair",
            nowMs,
          });
          return rendered(opened.pages(from, null));
        },
        graphql: async () => {
          const session = executor.session(nowMs);
          const opened = await throughGraphql.openPoolTrades(
            session,
            poolTrades,
            network,
            busiest.pairId,
            "market_pair",
          );
          return rendered(opened.pages(from, null));
        },
      },
      {
        answer: "order book, 50 levels",
        views: async () => JSON.stringify(await readPoolBook(views, network, { ...book, nowMs })),
        graphql: async () =>
          JSON.stringify(await throughGraphql.readPoolBook(executor, executor.session(nowMs), network, book)),
      },
      {
        answer: `/api/quote ${quote.sellToken}/${quote.buyToken}`,
        views: async () => JSON.stringify((await readQuote(views, { ...quote, nowMs })).value),
        graphql: async () =>
          JSON.stringify((await throughGraphql.readQuote(executor, executor.session(nowMs), quote)).value),
      },
      {
        answer: "/api/trade_volume_usd_7d",
        views: async () => JSON.stringify((await readTradeVolume7d(views, network, nowMs)).value),
        graphql: async () =>
          JSON.stringify(
            (await throughGraphql.readTradeVolume7d(executor, executor.session(nowMs), network)).value,
          ),
      },
    ];
    const rows: AnswerRow[] = [];
    for (const { answer, views: byViews, graphql } of answers) {
      rows.push(await timeAnswer(answer, byViews, graphql, rounds));
    }
    if ((options.syntheticPools ?? 0) > 0) {
      rows.push(await benchSyntheticListing(config, options.syntheticPools!, Math.min(rounds, 5)));
    }
    return rows;
  } finally {
    await indexing.stop();
    await store.close();
    await devnet.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * One line of the table: both paths' bytes compared once, a warm-up (JIT, the store's page cache),
 * then `rounds` rounds alternating which path goes first, the median of each.
 */
async function timeAnswer(
  answer: string,
  byViews: () => Promise<string>,
  graphql: () => Promise<string>,
  rounds: number,
): Promise<AnswerRow> {
  const bytes = await graphql();
  if ((await byViews()) !== bytes) throw new Error(`${answer}: the views' bytes differ from GraphQL's`);
  const times = { views: [] as number[], graphql: [] as number[] };
  const time = async (path: "views" | "graphql", make: () => Promise<string>) => {
    const started = performance.now();
    await make();
    times[path].push(performance.now() - started);
  };
  for (let i = 0; i < 3; i++) await Promise.all([byViews(), graphql()]);
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await time("views", byViews);
      await time("graphql", graphql);
    } else {
      await time("graphql", graphql);
      await time("views", byViews);
    }
  }
  const a = median(times.views);
  const b = median(times.graphql);
  return {
    answer,
    "views ms": Number(a.toFixed(3)),
    "GraphQL ms": Number(b.toFixed(3)),
    "views / GraphQL": (a / b).toFixed(2),
    "no worse": a <= b * 1.1 ? "yes" : "NO",
  };
}

const E18 = 10n ** 18n;
/** Trades per synthetic pool over the day. */
const SYNTHETIC_TRADES = 8;
const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;

/**
 * The listing of `count` synthetic V2 pools on `config`'s network: 100 tokens, each pool
 * trading 8 times over the last 25 hours (one trade a block, blocks spread evenly up to a second
 * ago, the pool's price in its marks), in an SQLite store of its own; the views load the pools as
 * the indexer would. What a listing costs as the pools grow (the devnet has 36).
 */
async function benchSyntheticListing(
  config: NetworkConfig,
  count: number,
  rounds: number,
): Promise<AnswerRow> {
  const network = config.name;
  const store = createSqliteStore({ path: ":memory:" });
  try {
    await store.migrate();
    const tokens: Token[] = Array.from({ length: 100 }, (_, k) => ({
      address: address(0x7000 + k),
      name: `Synthetic ${k}`,
      symbol: `SYN${k}`,
      decimals: 18,
    }));
    const pools: PoolState[] = Array.from({ length: count }, (_, i) => {
      // Two distinct tokens; a distinct pair for each of the first 9,900 pools.
      const a = address(0x7000 + (i % 100));
      const b = address(0x7000 + (((i % 100) + 1 + (Math.floor(i / 100) % 99)) % 100));
      return {
        address: address(0xa0000 + i),
        dex: config.dexes[0]!.name,
        factory: address(0xf1),
        token0: a < b ? a : b,
        token1: a < b ? b : a,
        feeBps: 30,
        reserve0: 10n ** 6n * E18,
        reserve1: BigInt(1 + (i % 997)) * 10n ** 6n * E18,
      };
    });
    const nowS = Math.floor(Date.now() / 1000);
    const total = count * SYNTHETIC_TRADES;
    const from = nowS - 90_000;
    const trades: Trade[] = Array.from({ length: total }, (_, n) => {
      const pool = pools[(n * 7919) % count]!;
      const amountIn = E18 + BigInt(n);
      const amountOut = (amountIn * pool.reserve1) / pool.reserve0;
      return {
        network,
        txHash: `0x${(n + 1).toString(16).padStart(64, "0")}`,
        blockNumber: BigInt(n + 1),
        timestamp: from + Math.floor((n * (90_000 - 1)) / total),
        txIndex: 0,
        logIndex: 0,
        sender: address(0x5000 + (n % 200)),
        tokenIn: pool.token0,
        amountIn,
        tokenOut: pool.token1,
        amountOut,
        volumeUsd: 0n,
        tracked: false,
        pools: [pool.address],
        marks: {
          priceInUsd: undefined,
          priceOutUsd: undefined,
          native: undefined,
          hops: [{ zeroForOne: true, amountIn, amountOut }],
        },
      };
    });
    const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;
    const CHUNK = 5_000;
    for (let first = 0; first < total; first += CHUNK) {
      const chunk = trades.slice(first, first + CHUNK);
      const last = chunk.at(-1)!;
      await store.commitRange(network, {
        checkpoint: { blockNumber: last.blockNumber, blockHash: hash(Number(last.blockNumber)) },
        blocks: [
          {
            number: last.blockNumber,
            hash: hash(Number(last.blockNumber)),
            parentHash: hash(Number(last.blockNumber) - 1),
            timestamp: last.timestamp,
          },
        ],
        pairs: first === 0 ? pools.map(({ reserve0: _r0, reserve1: _r1, ...pair }) => pair) : [],
        reserves: [],
        trades: chunk,
      });
    }
    const checkpoint = { blockNumber: BigInt(total), blockHash: hash(total) };
    const views = createLiveViews([config], store);
    views.load(network, { tokens, pools, checkpoint });
    views.markIndexed(network, checkpoint);
    views.setStatus(network, { ready: true });
    const executor = createGraphqlExecutor({
      reader: views,
      schema: buildSchema(),
      logger: pino({ level: "silent" }),
    });
    const listing = throughGraphql.parseListingOperations(executor);
    const endpoint = LISTING_ENDPOINTS[0]!;
    const nowMs = Date.now();
    return await timeAnswer(
      `listing ${endpoint.path} (${count} synthetic pools)`,
      async () => JSON.stringify(endpoint.build((await readListedMarkets(views, network, nowMs)).markets)),
      async () =>
        JSON.stringify(
          endpoint.build(
            (await throughGraphql.readListedMarkets(executor.session(nowMs), listing, network)).markets,
          ),
        ),
      rounds,
    );
  } finally {
    await store.close();
  }
}
