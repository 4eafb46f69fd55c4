import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { GRAPHQL_LIMITS } from "../src/graphql/graphqlLimits.js";
import { benchAnswers } from "./answers.js";
import { benchBackfill } from "./backfill.js";
import { benchDexScreener } from "./dexScreener.js";
import { benchFairness } from "./fairness.js";
import { benchDistinctQuotes, benchRestFairness, type ServerMemory } from "./httpFairness.js";
import { benchList } from "./list.js";
import { benchPaging } from "./paging.js";
import {
  benchPonder,
  ponderChainsFromEnv,
  ponderMaxRequestsPerSecondFromEnv,
  ponderRoundsFromEnv,
  ponderSizesFromEnv,
} from "./ponder.js";
import { POOLS_QUERY } from "./poolsQuery.js";
import { benchRateLimited } from "./rateLimited.js";
import {
  benchRpcEconomy,
  economyBlocksFromEnv,
  economyModesFromEnv,
  economyShapesFromEnv,
} from "./rpcEconomy.js";
import { benchScale, scaleSizesFromEnv } from "./scale.js";
import { benchStart } from "./start.js";
import { benchStatsCost } from "./statsCost.js";
import { STATS_QUERY } from "./statsQuery.js";
import { type BenchSwapTarget, benchSubscriptions } from "./subscriptions.js";
import { benchV3 } from "./v3.js";

/**
 * `npm run bench`: every figure is printed next to a reference measured in the same run on the
 * same machine. First the start (bench/start.ts; BENCH_START=0 skips it, BENCH_ONLY=start runs it
 * alone, BENCH_START_RUNS sets its runs, default 5): `npm start -- --config` of the build to the
 * serving banner against bare Node's start to a listening node:http server, alternated. Then the REST and GraphQL quote against a bare node:http server answering the same
 * bytes (BENCH_ONLY=http runs that table alone), SSE fan-out against one subscriber, and the backfill against the chain's raw eth_getLogs
 * rate, and the whole /api/swaps_24h list against the store's raw page read of the same rows
 * and the GraphQL path it replaced (bench/list.ts; BENCH_LIST=0 skips it, BENCH_LIST_SIZE sets its trades, default 100,000). Then
 * the RPC economy part (bench/rpcEconomy.ts: calls, compute units and bytes per trade of a full
 * backfill of BSC-shaped chains through the provider emulator; BENCH_ECONOMY=0 skips it,
 * BENCH_ECONOMY_SHAPES=bsc,issue17 picks the shapes, BENCH_ECONOMY_BLOCKS sizes the bsc one;
 * then a table of the cost models' backfills on each shape (BENCH_ECONOMY_MODES, default
 * auto,computeUnits,time,bytes,calls; none skips it): calls, compute units, bytes and the median
 * time to ready of BENCH_ECONOMY_ROUNDS alternating runs, default 3, with the default ("auto")
 * against the best mode),
 * then the scale part (bench/scale.ts; BENCH_SCALE=0 skips it, BENCH_ONLY=scale runs it alone,
 * BENCH_SCALE_SIZES=20000,100000 sets its sizes, BENCH_ONE_PAIR_SWAPS its one-pair reference,
 * default 20,000, 0 skips it). BENCH_HTTP=0 skips the HTTP and subscription part, BENCH_BACKFILL=0 the backfill;
 * the HTTP part ends with fairness under abuse (bench/fairness.ts: a quote's latency alone and
 * while 4 clients send the heaviest admitted query, without and with the per-client budget);
 * BENCH_ONLY=fairness runs that part alone (after the paging part: one client alone paging the
 * week of swaps through GraphQL 1,000 at a time, then through the NDJSON export, bench/paging.ts;
 * BENCH_ONLY=paging runs it alone, BENCH_PAGING_SECONDS sets its seconds, default 10). Then the HTTP edge's fairness (bench/httpFairness.ts;
 * BENCH_ONLY=httpFairness runs it alone): a quote's latency alone and while 4 clients download
 * the whole swap list without pause, and the server's memory through BENCH_DISTINCT_QUOTES
 * (default 8,000) quotes with a random sellAmount. Market stats (BENCH_STATS=0 skips them, BENCH_ONLY=stats
 * runs them alone): the stats query over HTTP against bare node:http answering its bytes, then
 * the store work of one unshared stats read (bench/statsCost.ts) on synthetic stores of
 * BENCH_STATS_SIZES trades (default 1000,100000; PostgreSQL too when BENCH_STATS_PG is its URL).
 * Then a rate-limited provider (bench/rateLimited.ts; BENCH_RATELIMIT=0 skips it,
 * BENCH_ONLY=rateLimited runs it alone, BENCH_RATELIMIT_CALLS=25,10 sets the limits): the demo's
 * three networks indexed through emulators answering 429 above the limit, against no limit
 * (BENCH_RATELIMIT_WARNINGS=1 prints each run's warn lines by message, the first three of each).
 * Then the answers issue 27 moved into the read model against the GraphQL operations that made
 * them before (bench/answers.ts; BENCH_ANSWERS=0 skips it, BENCH_ONLY=answers runs it alone;
 * BENCH_ANSWERS_POOLS=2000 adds a listing of that many synthetic pools).
 * Last, only with BENCH_PONDER=1 (it installs Ponder from npm
 * into ~/.cache/swapgraph-bench, outside the repository; BENCH_ONLY=ponder runs it alone), the
 * same-work Ponder side by side with swapgraph on the same chains (bench/ponder.ts;
 * BENCH_PONDER_CHAINS=issue17,onepair,dense picks the chains, BENCH_PONDER_ONE_PAIR_SWAPS and
 * BENCH_PONDER_DENSE_SWAPS size them, BENCH_PONDER_ROUNDS sets the alternated rounds, default 3).
 * The DEX Screener part (bench/dexScreener.ts): the
 * adapter's events over 1,000 blocks against bare node:http serving the same bytes;
 * BENCH_DEXSCREENER=0 skips it, BENCH_DEXSCREENER_SECONDS sets its seconds per target (default 4).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const only = process.env.BENCH_ONLY;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Row {
  target: string;
  "req/s": number;
  "p50 ms": number;
  "p99 ms": number;
  errors: number;
  /** Against bare node:http answering the same bytes. */
  "vs bare": string;
  /** Against bare node:http answering the quote's bytes, the small answer's ceiling. */
  "vs bare quote"?: string;
  /** The serving process's CPU (user + system) per answer, when the load had a server to ask. */
  "CPU µs/answer"?: number;
}

async function load(
  title: string,
  options: autocannon.Options,
  servers?: Pick<Servers, "cpuMicros">,
): Promise<Omit<Row, "vs bare">> {
  const cpuBefore = await servers?.cpuMicros();
  const result = await autocannon({ connections, duration: seconds, ...options });
  const cpuAfter = await servers?.cpuMicros();
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    target: title,
    "req/s": Math.round(result.requests.average),
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    errors: bad,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
      ? { "CPU µs/answer": Math.round((cpuAfter - cpuBefore) / result.requests.total) }
      : {}),
  };
}

interface Servers {
  swapgraphUrl: string;
  /** The same API with the per-client GraphQL budget (`budget`). */
  budgetUrl: string;
  /** The same API with a list budget the bench's one client cannot spend. */
  listUrl: string;
  /** Bytes of the demo's /api/swaps_24h at start. */
  listBytes: number;
  /** Bytes of the pools page (POOLS_QUERY) at start. */
  poolsBytes: number;
  budget: { costPerSecond: number; costBurst: number; concurrency: number };
  bareUrl: string;
  swap: BenchSwapTarget;
  /** The servers' live heap after a full GC, in bytes. */
  heapUsed(): Promise<number>;
  /** The servers' RSS and heap as they are (no collection first). */
  memory(): Promise<ServerMemory>;
  /** The servers' process CPU time (user + system) so far, in µs. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/** bench/servers.ts in a child process: the load generator does not share its event loop. */
async function startServers(): Promise<Servers> {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", new URL("./servers.ts", import.meta.url).pathname],
    {
      env: { ...process.env, NODE_ENV: "production" },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  // One listener each, removed with the answer: the memory sampler asks every 250 ms.
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`bench servers exited with ${code}`));
      child.once("exit", exited);
      lines.once("line", (line) => {
        child.off("exit", exited);
        resolve(line);
      });
    });
  const started = JSON.parse(await nextLine()) as Pick<
    Servers,
    "swapgraphUrl" | "budgetUrl" | "listUrl" | "listBytes" | "poolsBytes" | "budget" | "bareUrl" | "swap"
  >;
  return {
    ...started,
    async heapUsed() {
      const answer = nextLine();
      child.stdin!.write("heap\n");
      return (JSON.parse(await answer) as { heapUsed: number }).heapUsed;
    },
    async cpuMicros() {
      const answer = nextLine();
      child.stdin!.write("cpu\n");
      return (JSON.parse(await answer) as { cpuMicros: number }).cpuMicros;
    },
    async memory() {
      const answer = nextLine();
      child.stdin!.write("memory\n");
      return JSON.parse(await answer) as ServerMemory;
    },
    async stop() {
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** The market-stats query (a token's and a pool's, every window) against bare node:http answering its bytes. */
async function benchStatsHttp(servers: Servers): Promise<Row[]> {
  const { swapgraphUrl, bareUrl } = servers;
  const post = {
    url: `${swapgraphUrl}/graphql`,
    method: "POST" as const,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: STATS_QUERY }),
  };
  // Warm up (JIT) before measuring.
  await autocannon({ ...post, connections, duration: 2 });
  const rows = [
    await load("bare node:http, the stats answer's bytes", { url: `${bareUrl}/stats` }, servers),
    // Never kept as bytes (windows end at the request's second): each request runs GraphQL; the
    // store reads are shared by the requests of one second and indexed block.
    await load("POST /graphql token + pool stats", post, servers),
  ];
  const bare = rows[0]!["req/s"];
  return rows.map((row) => ({ ...row, "vs bare": (row["req/s"] / bare).toFixed(2) }));
}

const BARE_LIST = "bare node:http, the list's bytes";
const BARE_POOLS = "bare node:http, the pools page's bytes";

async function benchHttp(servers: Servers): Promise<Row[]> {
  const { swapgraphUrl, listUrl, bareUrl } = servers;
  const graphqlBody = JSON.stringify({
    query:
      'query { quote(network: bsc, sellToken: "CAKE", buyToken: "USDT") { price sellToken { symbol } buyToken { symbol } } }',
  });
  const poolsBody = JSON.stringify({ query: POOLS_QUERY });
  // Warm up each target (JIT, caches) before measuring.
  await autocannon({
    url: `${swapgraphUrl}/api/quote?sellToken=CAKE&buyToken=USDT`,
    connections,
    duration: 2,
  });
  const rows = [
    await load(
      "bare node:http, same bytes",
      { url: `${bareUrl}/api/quote?sellToken=CAKE&buyToken=USDT` },
      servers,
    ),
    await load(
      "GET /api/quote (REST)",
      { url: `${swapgraphUrl}/api/quote?sellToken=CAKE&buyToken=USDT` },
      servers,
    ),
    await load(
      "POST /graphql quote",
      {
        url: `${swapgraphUrl}/graphql`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: graphqlBody,
      },
      servers,
    ),
    // What the list's size alone costs: bare node:http answering the list's bytes.
    await load(BARE_LIST, { url: `${bareUrl}/api/swaps_24h` }, servers),
    // On a server whose list budget this one client cannot spend: the default budget would
    // refuse it (429) within a second, and the row would count refusals.
    await load("GET /api/swaps_24h (REST)", { url: `${listUrl}/api/swaps_24h` }, servers),
    await load(BARE_POOLS, { url: `${bareUrl}/pools` }, servers),
    // Kept per indexed state and hour (a sliding 24-hour window of hourly candles).
    await load(
      "POST /graphql pools by 24h volume (first 20)",
      {
        url: `${swapgraphUrl}/graphql`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: poolsBody,
      },
      servers,
    ),
  ];
  // Each row against bare node:http answering the same bytes (the list and the pools page against
  // their own bytes), and against the quote's bare rate beside it.
  const bareQuote = rows[0]!["req/s"];
  const bareList = rows.find((row) => row.target === BARE_LIST)!["req/s"];
  const barePools = rows.find((row) => row.target === BARE_POOLS)!["req/s"];
  return rows.map((row) => {
    const reference =
      row.target === BARE_LIST || row.target.includes("/api/swaps_24h")
        ? bareList
        : row.target === BARE_POOLS || row.target.includes("pools by 24h volume")
          ? barePools
          : bareQuote;
    return {
      ...row,
      "vs bare": (row["req/s"] / reference).toFixed(2),
      "vs bare quote": (row["req/s"] / bareQuote).toFixed(2),
    };
  });
}

async function runScale(): Promise<void> {
  await benchScale({
    sizes: scaleSizesFromEnv(),
    onePairSwaps: Number(process.env.BENCH_ONE_PAIR_SWAPS ?? 20_000),
  });
}

if ((only === undefined && process.env.BENCH_START !== "0") || only === "start") {
  const runs = Number(process.env.BENCH_START_RUNS ?? 5);
  console.log(
    `\nstart: npm start -- --config config/mainnet.json (dist/) to the serving banner, against node -e to a listening node:http server, alternated, ${runs} runs`,
  );
  console.table(await benchStart({ runs }));
  if (only === "start") process.exit(0);
}
if (only === "scale") {
  await runScale();
  // The part's own exit code: 1 when one of its tables failed.
  process.exit();
}
if (
  (only === undefined && process.env.BENCH_HTTP !== "0") ||
  only === "fairness" ||
  only === "paging" ||
  only === "stats" ||
  only === "httpFairness" ||
  only === "http"
) {
  const servers = await startServers();
  try {
    if ((only === undefined && process.env.BENCH_STATS !== "0") || only === "stats") {
      console.log(
        `Market stats: autocannon, ${connections} connections, ${seconds} s per target, a demo token's and pool's stats (every window) against bare node:http`,
      );
      console.table(await benchStatsHttp(servers));
    }
    if (only === undefined || only === "http") {
      console.log(
        `HTTP: autocannon, ${connections} connections, ${seconds} s per target, servers in a child process; the demo's /api/swaps_24h is ${servers.listBytes.toLocaleString("en-US")} bytes, the pools page ${servers.poolsBytes.toLocaleString("en-US")}`,
      );
      console.table(await benchHttp(servers));
    }
    if (only === undefined || only === "fairness" || only === "paging") {
      // First: the fairness part's heavy clients would count as present for 5 s after it.
      const pagingSeconds = Number(process.env.BENCH_PAGING_SECONDS ?? 10);
      console.log(
        `Paging: one client alone on the server with the default budget reads the last week of bsc swaps (issue 25 fields), ${pagingSeconds} s each: through GraphQL one page of 1,000 at a time (aim: 5,000 swaps/s, no 429), then the NDJSON export`,
      );
      console.table(await benchPaging(servers.budgetUrl, pagingSeconds));
    }
    if (only === undefined || only === "fairness") {
      const fairSeconds = Number(process.env.BENCH_FAIR_SECONDS ?? 20);
      const quotesPerSecond = Number(process.env.BENCH_FAIR_QUOTES ?? 50);
      const { costPerSecond, costBurst, concurrency } = servers.budget;
      // With the budget, a heavy client runs one heaviest query per maxCost / costPerSecond
      // seconds: the window holds at least one round of them.
      const budgetSeconds = Number(
        process.env.BENCH_FAIR_BUDGET_SECONDS ??
          Math.max(fairSeconds, Math.ceil((1.2 * GRAPHQL_LIMITS.maxCost) / costPerSecond)),
      );
      console.log(
        `Fairness: POST /graphql quote from one client at ${quotesPerSecond}/s, each timed from when it was due; alone (${fairSeconds} s), then while 4 other clients (each its own address) send the heaviest admitted query (15 x swaps(first: 111), every field) without pause, from when each had two answers (${fairSeconds} s; ${budgetSeconds} s with the budget)`,
      );
      console.table(
        await benchFairness(
          {
            unlimitedUrl: servers.swapgraphUrl,
            budgetUrl: servers.budgetUrl,
            budgetLabel: `budget ${costPerSecond}/s, burst ${costBurst}, ${concurrency} at once`,
          },
          {
            seconds: fairSeconds,
            budgetSeconds,
            quotesPerSecond,
            heavyClients: 4,
            settle: async () => {
              await servers.heapUsed();
            },
          },
        ),
      );
    }
    if (only === undefined || only === "httpFairness") {
      const fairSeconds = Number(process.env.BENCH_FAIR_SECONDS ?? 20);
      const quotesPerSecond = Number(process.env.BENCH_FAIR_QUOTES ?? 50);
      const listPath = "/api/swaps_24h?network=bsc";
      console.log(
        `REST fairness: POST /graphql quote from one client at ${quotesPerSecond}/s, each timed from when it was due; alone (${fairSeconds} s), then while 4 other clients (each its own address) download ${listPath} whole without pause, ignoring Retry-After (${fairSeconds} s); the server's default list budget and connection share`,
      );
      console.table(
        await benchRestFairness(servers.swapgraphUrl, {
          seconds: fairSeconds,
          quotesPerSecond,
          downloaders: 4,
          listPath,
        }),
      );
      const count = Number(process.env.BENCH_DISTINCT_QUOTES ?? 8_000);
      console.log(
        `Memory: ${count} POST /graphql quotes with a random sellAmount (each request and answer distinct), 16 at a time; the server's RSS and heap (its process also runs the indexer, the devnet's store and a second server)`,
      );
      console.table(
        await benchDistinctQuotes(
          servers.swapgraphUrl,
          { now: () => servers.memory(), afterGc: () => servers.heapUsed() },
          { count, concurrency: 16 },
        ),
      );
    }
    if (only === undefined) {
      console.log(
        "Subscriptions: one swap mined per round (5 rounds), time from evm_mine to each SSE subscriber's event, against one subscriber",
      );
      const counts = (process.env.BENCH_SUBSCRIBERS ?? "1,100,1000").split(",").map(Number);
      console.table(await benchSubscriptions(servers, counts));
    }
  } finally {
    await servers.stop();
  }
}
if ((only === undefined && process.env.BENCH_STATS !== "0") || only === "stats") {
  const sizes = (process.env.BENCH_STATS_SIZES ?? "1000,100000").split(",").map(Number);
  const pgUrl = process.env.BENCH_STATS_PG;
  console.log(
    "Market stats, store work of one unshared read (the windows' aggregate and five prices), synthetic trades over 24 h, every one holding WBNB",
  );
  console.table(await benchStatsCost({ sizes, ...(pgUrl === undefined || pgUrl === "" ? {} : { pgUrl }) }));
}
if ((only === undefined && process.env.BENCH_RATELIMIT !== "0") || only === "rateLimited") {
  const limits = (process.env.BENCH_RATELIMIT_CALLS ?? "25,10").split(",").map(Number);
  console.log(
    `Rate-limited provider: the demo's three networks indexed from scratch, one provider emulator each, without a limit and with HTTP 429 + Retry-After: 1 above ${limits.join(" and ")} calls/s per URL (aim at 25: ready under the limit, same trades, fewer than 100 warn lines)`,
  );
  console.table(await benchRateLimited({ limits }));
}
if ((only === undefined && process.env.BENCH_ANSWERS !== "0") || only === "answers") {
  const rounds = Number(process.env.BENCH_ANSWERS_ROUNDS ?? 30);
  console.log(
    `Answers: each made in the read model (src/views/answers) against the fixed GraphQL operations that made it before (test/support/readAnswersThroughGraphql.ts), in process on one indexed bsc devnet, ${rounds} rounds alternated, medians (aim: no worse, views / GraphQL at most 1.1)`,
  );
  const syntheticPools = Number(process.env.BENCH_ANSWERS_POOLS ?? 0);
  console.table(await benchAnswers({ rounds, syntheticPools }));
}
if (only === "ponder") await runPonderPart();
if (only !== undefined) process.exit(process.exitCode ?? 0);
if (process.env.BENCH_DEXSCREENER !== "0") {
  const { rows, answer } = await benchDexScreener({
    seconds: Number(process.env.BENCH_DEXSCREENER_SECONDS ?? 4),
    connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  });
  console.log(
    `DEX Screener adapter: events over ${answer.blocks} blocks (${answer.events} events, ${answer.bytes.toLocaleString("en-US")} bytes) against bare node:http, same bytes; made fresh in ${Math.round(answer.freshMs)} ms (${((answer.freshMs * 1000) / answer.events).toFixed(1)} µs an event)`,
  );
  console.table(rows);
}

if (process.env.BENCH_BACKFILL !== "0") {
  console.log(
    "Backfill: one bsc devnet with 3,000 swap transactions, against the raw eth_getLogs rate of the same chain",
  );
  console.table(await benchBackfill({ swaps: Number(process.env.BENCH_SWAPS ?? 3000) }));
}

if (process.env.BENCH_V3 !== "0") {
  console.log(
    "Concentrated liquidity: an eth demo devnet with V2 and V3 pools; V3 against V2 backfill and quotes in the same run",
  );
  console.table(
    await benchV3({
      swaps: Number(process.env.BENCH_SWAPS ?? 3000),
      rounds: Number(process.env.BENCH_V3_ROUNDS ?? 10),
    }),
  );
}

if (process.env.BENCH_ECONOMY !== "0") {
  const bscBlocks = economyBlocksFromEnv();
  await benchRpcEconomy({
    shapes: economyShapesFromEnv(),
    ...(bscBlocks === undefined ? {} : { bscBlocks }),
    modes: economyModesFromEnv(),
    rounds: Number(process.env.BENCH_ECONOMY_ROUNDS ?? 3),
  });
}

if (process.env.BENCH_LIST !== "0") {
  const size = Number(process.env.BENCH_LIST_SIZE ?? 100_000);
  console.log(
    `Whole list: GET /api/swaps_24h of a synthetic SQLite store of ${size.toLocaleString("en-US")} trades (filled through the store API), server in a child process, against the store's raw page read of the same rows and the GraphQL path it replaced`,
  );
  console.table(await benchList({ size }));
}

if (process.env.BENCH_SCALE !== "0") await runScale();

if (process.env.BENCH_PONDER === "1") await runPonderPart();

async function runPonderPart(): Promise<void> {
  await benchPonder({
    chains: ponderChainsFromEnv(),
    sizes: ponderSizesFromEnv(),
    ponderMaxRequestsPerSecond: ponderMaxRequestsPerSecondFromEnv(),
    rounds: ponderRoundsFromEnv(),
  });
}
