import { mkdtempSync, rmSync } from "node:fs";
import { get as httpGet, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type Devnet, startDevnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { quoterV2Abi } from "@swapgraph/devnet/v3/v3Abis.js";
import { createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import type { TradePosition } from "../../src/domain/market.js";
import type { Address, NetworkName, Trade } from "../../src/domain/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import { createTestServer } from "../http/support.js";
import { sendSwap, sendV3Swap } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { readTradesFromReceipts } from "../support/readTradesFromReceipts.js";
import { expectCandlesEqualRecompute } from "../support/recomputeCandles.js";
import {
  assertSpecHeaders,
  assertSpecShapeDailyVolumes,
  assertSpecShapeError,
  assertSpecShapeQuote,
  assertSpecShapeSwaps,
} from "../support/specShape.js";
import { waitFor } from "../support/waitFor.js";

const routerAbi = parseAbi([
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[])",
]);
const silent = { info() {}, warn() {}, error() {} };

let devnet: Devnet;
let dataDir: string;
let store: Store;
let indexing: Indexing;
let server: Server;
let base: string;

/** An element of /api/swaps_24h, the fields compared here. */
interface SwapItem {
  tx_hash: string;
  block_number: string;
  sell_token: { address: string; amount: string };
  buy_token: { address: string; amount: string };
}

function chainOf(network: NetworkName): DevnetChainInfo {
  return devnet.chains.find((c) => c.network === network)!;
}
function configOf(network: NetworkName): NetworkConfig {
  return devnet.networks.find((c) => c.name === network)!;
}
function clientOf(network: NetworkName) {
  return createPublicClient({ transport: http(configOf(network).rpcUrls[0]) });
}

async function get(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await fetch(base + path, init);
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text), response };
}

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
}

/** Exact decimal of `amount / 10^decimals` with trailing zeros removed, as the API writes prices. */
function toDecimal(amount: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const frac = (amount % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  return frac === "" ? (amount / scale).toString() : `${amount / scale}.${frac}`;
}

/** Output of the chain's own routers (or V3 quoter) hop by hop along a route (each hop on its pool's DEX). */
async function chainOutput(network: NetworkName, route: RouteResult, amountIn: bigint): Promise<bigint> {
  const config = configOf(network);
  let amount = amountIn;
  const v3 = chainOf(network).v3;
  for (const [i, pool] of route.pools.entries()) {
    // A hop on the V3 DEX: its quoter (QuoterV2's interface) answers what the pool pays.
    const v3Pool = v3?.pools.find((p) => p.address === pool.address.toLowerCase());
    if (v3 !== undefined && v3Pool !== undefined) {
      const { result } = await clientOf(network).simulateContract({
        address: v3.quoter,
        abi: quoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [
          {
            tokenIn: route.path[i] as Address,
            tokenOut: route.path[i + 1] as Address,
            amountIn: amount,
            fee: v3Pool.fee,
            sqrtPriceLimitX96: 0n,
          },
        ],
      });
      amount = result[0];
      continue;
    }
    const router = config.dexes.find((dex) => dex.name === pool.dex)!.router!;
    const amounts = await clientOf(network).readContract({
      address: router,
      abi: routerAbi,
      functionName: "getAmountsOut",
      args: [amount, [route.path[i] as Address, route.path[i + 1] as Address]],
    });
    amount = amounts[amounts.length - 1]!;
  }
  return amount;
}

/** Best output of any single router over the direct path and every one-hop path through a base token. */
async function bestRouterOutput(
  network: NetworkName,
  sell: Address,
  buy: Address,
  amountIn: bigint,
): Promise<bigint> {
  const config = configOf(network);
  const paths: Address[][] = [[sell, buy]];
  for (const baseToken of config.baseTokens) {
    if (baseToken !== sell && baseToken !== buy) paths.push([sell, baseToken, buy]);
  }
  let best = 0n;
  // The V2 DEXes' routers.
  for (const dex of config.dexes.filter((d) => d.kind === "uniswap-v2")) {
    for (const path of paths) {
      try {
        const amounts = await clientOf(network).readContract({
          address: dex.router!,
          abi: routerAbi,
          functionName: "getAmountsOut",
          args: [amountIn, path],
        });
        const out = amounts[amounts.length - 1]!;
        if (out > best) best = out;
      } catch {
        // No pair on this DEX for this path.
      }
    }
  }
  return best;
}

interface RouteResult {
  pools: { address: string; dex: string }[];
  path: string[];
}

async function quoteRoute(network: NetworkName, sellToken: string, buyToken: string) {
  const result = await graphql(
    `query Q($network: Network!, $sell: String!, $buy: String!) {
      quote(network: $network, sellToken: $sell, buyToken: $buy) {
        sellAmount buyAmount price route { pools { address dex } path }
      }
    }`,
    { network, sell: sellToken, buy: buyToken },
  );
  expect(result.errors).toBeUndefined();
  return result.data!.quote as { sellAmount: string; buyAmount: string; price: string; route: RouteResult };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-e2e-"));
  devnet = await startDevnet({
    networks: ["bsc", "eth"],
    swapsPerNetwork: 300,
    traders: 52,
    liveIntervalMs: 0,
    dataDir,
    seed: 11,
  });
  store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  const networks = devnet.networks.map((n) => ({ ...n, pollIntervalMs: 100 }));
  indexing = createIndexing({ networks, store, log: silent });
  ({ server } = await createTestServer(indexing.views));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Before the backfill is done the data endpoints answer 503, /ready too.
  const early = await get("/api/trade_volume_usd_7d");
  expect([200, 503]).toContain(early.status);
  indexing.start();
  await waitFor(async () => (await fetch(`${base}/ready`)).status === 200, 120_000, "/ready");
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    if (server === undefined) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await indexing?.stop();
  await store?.close();
  await devnet?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /api/quote on the demo chains", () => {
  const cases: [string, NetworkName, (c: DevnetChainInfo) => [string, string]][] = [
    ["symbols", "bsc", () => ["CAKE", "USDT"]],
    ["symbols, case-insensitive", "bsc", () => ["btcb", "Eth"]],
    [
      "addresses in mixed case",
      "bsc",
      (c) => [c.tokens.ETH!.toUpperCase().replace("0X", "0x"), c.tokens.USDC!],
    ],
    ["native coin sold", "bsc", () => ["BNB", "USDT"]],
    ["native coin bought", "bsc", () => ["USDT", "BNB"]],
    ["an unlisted token by address", "bsc", (c) => [c.unlisted.MOON!, "USDT"]],
    ["6-decimal stablecoin on eth", "eth", () => ["ETH", "USDC"]],
    ["8-decimal WBTC on eth", "eth", () => ["WBTC", "USDT"]],
    // Its only pool is on the 0.25% DEX: the route's output is that router's getAmountsOut.
    ["a token pooled only on the 0.25% DEX", "bsc", (c) => [c.chainCases!.fee25Only!, "BNB"]],
  ];

  test.each(cases)(
    "behavior: %s equals the routers' output along the returned route",
    async (_, network, pick) => {
      const chain = chainOf(network);
      const [sell, buy] = pick(chain);
      const rest = await get(
        `/api/quote?sellToken=${encodeURIComponent(sell)}&buyToken=${encodeURIComponent(buy)}&network=${network}`,
      );
      expect(rest.status).toBe(200);
      assertSpecHeaders(rest.response);
      assertSpecShapeQuote(rest.body, { network });
      const result = (rest.body as { result: Record<string, Record<string, string>> }).result;
      const sellDecimals = Number(result.sell_token!.decimals);
      const buyDecimals = Number(result.buy_token!.decimals);

      const { route, sellAmount, buyAmount, price } = await quoteRoute(network, sell, buy);
      expect(price).toBe((result as unknown as { price: string }).price);
      expect(BigInt(sellAmount)).toBe(10n ** BigInt(sellDecimals));
      const onChain = await chainOutput(network, route, BigInt(sellAmount));
      expect(BigInt(buyAmount)).toBe(onChain);
      expect(price).toBe(toDecimal(onChain, buyDecimals));

      const best = await bestRouterOutput(
        network,
        route.path[0] as Address,
        route.path[route.path.length - 1] as Address,
        BigInt(sellAmount),
      );
      expect(BigInt(buyAmount)).toBeGreaterThanOrEqual(best);
      expect(best).toBeGreaterThan(0n);
    },
  );

  test("behavior: the native coin shows with an empty address and its own metadata", async () => {
    const { body } = await get("/api/quote?sellToken=BNB&buyToken=USDT");
    const result = (body as { result: Record<string, unknown> }).result;
    expect(result.network).toBe("bsc");
    expect(result.sell_token).toEqual({ name: "BNB", symbol: "BNB", decimals: "18", address: "" });
    expect(result.buy_token).toMatchObject({
      symbol: "USDT",
      decimals: "18",
      address: chainOf("bsc").tokens.USDT,
    });
  });

  test("behavior: an unlisted token's metadata is read from the chain", async () => {
    const moon = chainOf("bsc").unlisted.MOON!;
    const { body } = await get(`/api/quote?sellToken=${moon}&buyToken=BNB`);
    expect((body as { result: Record<string, unknown> }).result.sell_token).toEqual({
      name: "Moon Shot",
      symbol: "MOON",
      decimals: "18",
      address: moon,
    });
  });
});

describe("GET /api/swaps_24h and /api/trade_volume_usd_7d on the demo chains", () => {
  /** Every indexed trade with from <= timestamp < to, read through the views a keyset page at a time. */
  async function trades(network: NetworkName, from: number, to: number): Promise<Trade[]> {
    const all: Trade[] = [];
    let after: TradePosition | undefined;
    for (;;) {
      const page = await indexing.views.listTrades(network, {
        fromTimestamp: from,
        toTimestamp: to,
        limit: 10_000,
        ...(after === undefined ? {} : { after }),
      });
      all.push(...page);
      const last = page.at(-1);
      if (page.length < 10_000 || last === undefined) return all;
      after = { blockNumber: last.blockNumber, txIndex: last.txIndex, logIndex: last.logIndex };
    }
  }

  test("behavior: swaps_24h is the window of indexed trades, in the spec's shape and order", async () => {
    for (const network of ["bsc", "eth"] as const) {
      const before = Math.floor(Date.now() / 1000);
      const { status, body, response } = await get(`/api/swaps_24h?network=${network}`);
      const after = Math.floor(Date.now() / 1000);
      expect(status).toBe(200);
      assertSpecHeaders(response);
      assertSpecShapeSwaps(body);
      const list = body as SwapItem[];
      const wide = await trades(network, before - 86_400 - 2, after + 1);
      const narrow = await trades(network, after - 86_400 + 1, before);
      expect(list.length).toBeGreaterThanOrEqual(narrow.length);
      expect(list.length).toBeLessThanOrEqual(wide.length);
      expect(list.length).toBeGreaterThan(10);
      // A transaction can hold several trades (an aggregator): they come in order, one element each.
      const byHash = new Map<string, Trade[]>();
      for (const t of wide) byHash.set(t.txHash, [...(byHash.get(t.txHash) ?? []), t]);
      const matched = list.map((item) => byHash.get(item.tx_hash)?.shift());
      for (const [i, item] of list.entries()) {
        const trade = matched[i]!;
        expect(trade).toBeDefined();
        expect(item.block_number).toBe(trade.blockNumber.toString());
        expect(item.sell_token.address).toBe(trade.tokenIn);
        expect(item.sell_token.amount).toBe(trade.amountIn.toString());
      }
      const keys = matched.map((t) => [t!.blockNumber, t!.txIndex, t!.logIndex] as const);
      const sorted = [...keys].sort((a, b) =>
        a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1] || a[2] - b[2],
      );
      expect(keys).toEqual(sorted);
    }
  });

  test("behavior: swaps_24h equals an independent reading of the receipts, one element per trade", async () => {
    for (const network of ["bsc", "eth"] as const) {
      const before = Math.floor(Date.now() / 1000);
      const { status, body } = await get(`/api/swaps_24h?network=${network}`);
      const after = Math.floor(Date.now() / 1000);
      expect(status).toBe(200);
      const list = (body as SwapItem[]).map(({ tx_hash, block_number, sell_token, buy_token }) => ({
        tx_hash,
        block_number,
        sell: [sell_token.address, sell_token.amount],
        buy: [buy_token.address, buy_token.amount],
      }));
      const read = async (from: number) =>
        (await readTradesFromReceipts(configOf(network), from)).map((t) => ({
          tx_hash: t.txHash as string,
          block_number: t.blockNumber.toString(),
          sell: [t.tokenIn as string, t.amountIn.toString()],
          buy: [t.tokenOut as string, t.amountOut.toString()],
        }));
      const wide = await read(before - 86_400 - 2);
      const narrow = await read(after - 86_400 + 1);
      // The window's start moved between the readings: the answer lies between the two.
      const start = wide.findIndex((t) => t.tx_hash === list[0]!.tx_hash);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(list).toEqual(wide.slice(start, start + list.length));
      expect(list.length).toBeGreaterThanOrEqual(narrow.length);
      expect(start + list.length).toBe(wide.length);
      // The real-chain cases are in it: aggregator transactions list several trades, the fork none.
      const cases = chainOf(network).chainCases!;
      const counts = new Map<string, number>();
      for (const item of list) counts.set(item.tx_hash, (counts.get(item.tx_hash) ?? 0) + 1);
      const aggregated = cases.txs.aggregator.filter((hash) => counts.has(hash));
      expect(aggregated.length).toBeGreaterThan(0);
      // Six routes (one of two hops), six trades: test/indexer/indexer.test.ts details them.
      for (const hash of aggregated) expect(counts.get(hash)).toBe(6);
      expect(list.filter((item) => cases.txs.fork.includes(item.tx_hash as `0x${string}`))).toEqual([]);
    }
  });

  test("behavior: large answers are gzipped for clients that accept it, byte-identical once unpacked", async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = httpGet(`${base}/api/swaps_24h?network=eth`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on("error", reject);
      });
    const plain = await raw({});
    const packed = await raw({ "accept-encoding": "br;q=1, gzip;q=0.8" });
    const refused = await raw({ "accept-encoding": "gzip;q=0" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(packed.headers["content-encoding"]).toBe("gzip");
    // Field names are case-insensitive: the shared rendering says "Accept-Encoding", the streamed
    // path (which the demo's list takes when it is larger than the shared limit or mid-render)
    // "accept-encoding".
    expect(String(packed.headers.vary).toLowerCase()).toBe("accept-encoding");
    expect(packed.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
  });

  test("behavior: trade_volume_usd_7d has 7 UTC days newest first whose sums equal the trades", async () => {
    const { status, body } = await get("/api/trade_volume_usd_7d?network=eth");
    const now = Math.floor(Date.now() / 1000);
    expect(status).toBe(200);
    assertSpecShapeDailyVolumes(body, { now });
    const days = body as { date: string; address_count: string; trade_volume_usd: string }[];
    const all = await trades("eth", 0, now + 86_400);
    let nonEmpty = 0;
    for (const day of days) {
      const of = all.filter((t) => new Date(t.timestamp * 1000).toISOString().slice(0, 10) === day.date);
      const sum = of.reduce((s, t) => s + t.volumeUsd, 0n);
      expect(day.trade_volume_usd).toBe(toDecimal(sum, 18));
      expect(day.address_count).toBe(String(new Set(of.map((t) => t.sender)).size));
      if (of.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(6);
  });
});

describe("V3 trades in the market views on the demo chains", () => {
  test("behavior: candles of every token and pool, V3 pools included, equal a recompute from the stored trades", async () => {
    for (const network of ["bsc", "eth"] as const) {
      const trades = await listAllTrades(store, network, 0);
      const v3Pools = new Set(chainOf(network).v3!.pools.map((p) => p.address.toLowerCase()));
      // Not vacuous: V3 trades are in, alone and chained with V2 pools.
      const throughV3 = trades.filter((t) => t.pools.some((pool) => v3Pools.has(pool)));
      expect(throughV3.length, network).toBeGreaterThan(5);
      expect(
        throughV3.some((t) => t.pools.some((pool) => !v3Pools.has(pool))),
        network,
      ).toBe(true);
      const compared = await expectCandlesEqualRecompute(indexing.views, network, trades);
      expect(compared, network).toBeGreaterThan(500);
    }
  });

  test("behavior: each V3 pool's 24h volume and trade count equal the stored trades through it", async () => {
    const network = "eth";
    const now = Math.floor(Date.now() / 1000);
    // The hourly buckets from the hour holding 24 hours ago (see Pool.volumeUSD24h).
    const since = Math.floor((now - 86_400) / 3600) * 3600;
    const trades = (await listAllTrades(store, network, since)).filter((t) => t.timestamp >= since);
    for (const pool of chainOf(network).v3!.pools) {
      const address = pool.address.toLowerCase();
      const result = await graphql(
        `query P($address: String!) { pool(network: eth, address: $address) { kind volumeUSD24h tradeCount24h } }`,
        { address },
      );
      expect(result.errors).toBeUndefined();
      const got = result.data!.pool as { kind: string; volumeUSD24h: string; tradeCount24h: number };
      let count = 0;
      let volume = 0n;
      for (const trade of trades) {
        const hops = trade.pools.filter((p) => p === address).length;
        count += hops;
        if (trade.tracked) volume += trade.volumeUsd * BigInt(hops);
      }
      expect(got.kind).toBe("V3");
      expect(got.tradeCount24h, address).toBe(count);
      expect(got.volumeUSD24h, address).toBe(toDecimal(volume, 18));
    }
  });
});

describe("errors and operations over real HTTP", () => {
  const errorCases: [string, string, number, RegExp][] = [
    ["missing sellToken", "/api/quote?buyToken=USDT", 400, /sellToken/],
    ["unknown network", "/api/quote?sellToken=BNB&buyToken=USDT&network=solana", 400, /bsc, eth, polygon/],
    ["same token", "/api/quote?sellToken=USDT&buyToken=usdt", 400, /same/i],
    ["unknown symbol", "/api/quote?sellToken=NOPE&buyToken=USDT", 400, /contract address/],
    ["malformed address", "/api/quote?sellToken=0x1234&buyToken=USDT", 400, /./],
    ["network not indexed here", "/api/quote?sellToken=POL&buyToken=USDT&network=polygon", 503, /polygon/],
    ["unknown path", "/api/nope", 404, /./],
  ];

  test.each(errorCases)("error: %s", async (_, path, status, message) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(assertSpecShapeError(res.body)).toMatch(message);
    expect(res.response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  test("error: an address that is not an ERC-20 contract is a 400", async () => {
    const trader = chainOf("bsc").traders[0]!;
    const res = await get(`/api/quote?sellToken=${trader}&buyToken=USDT`);
    expect(res.status).toBe(400);
    expect(assertSpecShapeError(res.body)).toMatch(/not an ERC-20/);
  });

  test("error: a token with no liquidity route is a 422", async () => {
    // A pair's LP token is an ERC-20 that no pool holds.
    const lp = chainOf("bsc").pools[0]!.address;
    const res = await get(`/api/quote?sellToken=${lp}&buyToken=USDT`);
    expect(res.status).toBe(422);
    expect(assertSpecShapeError(res.body)).toMatch(/route/i);
  });

  test("error: methods other than GET/HEAD are a 405", async () => {
    const res = await get("/api/quote?sellToken=BNB&buyToken=USDT", { method: "POST" });
    expect(res.status).toBe(405);
    assertSpecShapeError(res.body);
  });

  test("behavior: GraphiQL answers, /health and /ready are up, status tells each network", async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/graphiql/i);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    const head = await clientOf("bsc").getBlockNumber({ cacheTime: 0 });
    expect(text).toContain(`swapgraph_indexed_block{network="bsc"} ${head}`);
    expect(text).toContain('swapgraph_ready{network="eth"} 1');
    expect(text).toMatch(
      /swapgraph_http_request_duration_seconds_count\{route="\/api\/quote",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /swapgraph_http_request_duration_seconds_count\{route="\/api\/quote",status="400"\} [1-9]/,
    );
    const status = await graphql("{ status { network ready indexedBlock headBlock } }");
    const list = status.data!.status as { network: string; ready: boolean; indexedBlock: string }[];
    expect(list.map((s) => s.network).sort()).toEqual(["bsc", "eth"]);
    for (const s of list) {
      expect(s.ready).toBe(true);
      expect(BigInt(s.indexedBlock)).toBe(
        await clientOf(s.network as NetworkName).getBlockNumber({ cacheTime: 0 }),
      );
    }
  });
});

describe("HTTP caching over the real indexer", () => {
  test("behavior: a kept quote changes once a swap is indexed: new block, new price, new ETag", async () => {
    const path = "/api/quote?sellToken=CAKE&buyToken=USDT";
    const before = await get(path);
    expect(before.status).toBe(200);
    const etag = before.response.headers.get("etag")!;
    const block = BigInt(before.response.headers.get("x-indexed-block")!);
    expect(etag).toMatch(new RegExp(`^"bsc-${block}-[A-Za-z0-9_-]{16}"$`));
    expect(before.response.headers.get("cache-control")).toMatch(
      /^public, max-age=\d+, stale-while-revalidate=\d+$/,
    );
    const kept = await fetch(base + path, { headers: { "if-none-match": etag } });
    expect(kept.status).toBe(304);
    expect(await kept.text()).toBe("");

    // A swap through the first pool of the quote's own route moves its reserves.
    const { route } = await quoteRoute("bsc", "CAKE", "USDT");
    const first = route.pools[0]!;
    if (chainOf("bsc").v3?.pools.some((p) => p.address === first.address.toLowerCase())) {
      await sendV3Swap(chainOf("bsc"), {
        pool: first.address as Address,
        tokenIn: route.path[0] as Address,
        amountIn: 10n ** 18n,
      });
    } else {
      await sendSwap(chainOf("bsc"), {
        path: [route.path[0]!, route.path[1]!],
        amountIn: 10n ** 18n,
        dex: first.dex,
      });
    }
    let after: Response | undefined;
    await waitFor(
      async () => {
        after = await fetch(base + path, { headers: { "if-none-match": etag } });
        return BigInt(after.headers.get("x-indexed-block") ?? "0") > block;
      },
      30_000,
      "the swap's block to be indexed",
    );
    expect(after!.status).toBe(200);
    expect(after!.headers.get("etag")).not.toBe(etag);
    const price = (body: unknown) => (body as { result: { price: string } }).result.price;
    const now = price(await after!.json());
    expect(now).not.toBe(price(before.body));
    expect(now).toBe((await quoteRoute("bsc", "CAKE", "USDT")).price);
  });
});
