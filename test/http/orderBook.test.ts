import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { quoterV2Abi } from "@swapgraph/devnet/v3/v3Abis.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type Address, createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Store } from "../../src/store/types.js";
import { chainHead, startTestDevnet } from "../support/devnet.js";
import { openApiSchema } from "../support/openApiSchema.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { startServer, type TestServer } from "./support.js";

// The real path: anvil's V2 pairs and Uniswap V3 pools (eth: the official QuoterV2 build) ->
// indexer -> store (SQLite and PostgreSQL) -> Pool.orderBook and the listings' /orderbook. Every
// level is checked against the chain at the answer's block: a side's first k levels summed are
// one swap, whose output the router's getAmountsOut (V2) or QuoterV2 with the level's price limit
// (V3) must give exactly, and whose input must take the pool's price to the level's edge and no
// further.
const silent = { info() {}, warn() {}, error() {} };
const ajv = new Ajv2020({ allErrors: true, strict: false });
const pairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"]);
const routerAbi = parseAbi([
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
]);
const slot0Abi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)",
]);

interface Level {
  price: string;
  amount0: string;
  amount1: string;
  sqrtPriceX96: string | null;
}
interface BookPool {
  address: Address;
  dex: string;
  kind: "V2" | "V3";
  feeBps: number;
  feeTier: number | null;
  token0: Address;
  token1: Address;
  blockNumber: string;
  reserve0: { token: { decimals: number } };
  reserve1: { token: { decimals: number } };
  orderBook: { midPrice: string; bestAsk: string; bestBid: string; asks: Level[]; bids: Level[] };
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;
const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });

beforeAll(async () => {
  devnet = await startTestDevnet({ seed: 41, networks: ["eth"] });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
}, 180_000);

afterAll(async () => {
  await devnet?.stop();
});

function isqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) >> 1n;
  while (y < x) {
    x = y;
    y = (x + value / x) >> 1n;
  }
  return x;
}

/** token1 per whole token0 of a ratio of smallest units, 36 digits of smallest units. */
function priceOf(numerator: bigint, denominator: bigint, d0: number, d1: number): string {
  const raw = (numerator * 10n ** 36n) / denominator;
  const digits = 36 + d1 - d0;
  return digits >= 0 ? formatDecimal(raw, digits) : formatDecimal(raw * 10n ** BigInt(-digits), 0);
}

const cumulative = (levels: Level[]) => {
  let in0 = 0n;
  let in1 = 0n;
  return levels.map((level) => {
    in0 += BigInt(level.amount0);
    in1 += BigInt(level.amount1);
    return { amount0: in0, amount1: in1, sqrtPriceX96: level.sqrtPriceX96 };
  });
};

describe.each(createTestStores())("order books on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let api: TestServer;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    api = await startServer(indexing.views);
    indexing.start();
    const head = await chainHead(chain.rpcUrl);
    await waitUntilIndexed(indexing.views, config.name, {
      to: head,
      also: () => indexing.views.poolsBlock(config.name) === head,
    });
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  async function graphql<T>(query: string): Promise<T> {
    const answer = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    const body = answer.body as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  const POOL_FIELDS = (levels: number, range: string) =>
    `address dex kind feeBps feeTier token0 token1 blockNumber
     reserve0 { token { decimals } } reserve1 { token { decimals } }
     orderBook(levels: ${levels}, rangePercent: "${range}") {
       midPrice bestAsk bestBid
       asks { price amount0 amount1 sqrtPriceX96 }
       bids { price amount0 amount1 sqrtPriceX96 }
     }`;

  /** The deepest V2 pair and V3 pool of the network. */
  async function poolsToCheck(levels: number, range: string): Promise<BookPool[]> {
    const out: BookPool[] = [];
    for (const kind of ["V2", "V3"]) {
      const data = await graphql<{ pools: { edges: { node: BookPool }[] } }>(
        `{ pools(network: eth, kind: ${kind}, first: 1) { edges { node { ${POOL_FIELDS(levels, range)} } } } }`,
      );
      out.push(data.pools.edges[0]!.node);
    }
    return out;
  }

  /** V2: the router's output for each summed level, and the pair's price after it at the edge, not past it. */
  async function checkV2(pool: BookPool, levels: number, range: string): Promise<void> {
    const client = clientOf();
    const blockNumber = BigInt(pool.blockNumber);
    const router = chain.dexes.find((dex) => dex.name === pool.dex)!.router;
    const [r0, r1] = await client.readContract({
      address: pool.address,
      abi: pairAbi,
      functionName: "getReserves",
      blockNumber,
    });
    const out = async (amountIn: bigint, path: Address[]) =>
      amountIn === 0n
        ? 0n
        : (
            await client.readContract({
              address: router,
              abi: routerAbi,
              functionName: "getAmountsOut",
              args: [amountIn, path],
              blockNumber,
            })
          )[1]!;
    const div = 1_000_000n * BigInt(levels);
    const rangePpm = BigInt(Math.round(Number(range) * 10_000));
    for (const [ask, side] of [
      [true, pool.orderBook.asks],
      [false, pool.orderBook.bids],
    ] as const) {
      expect(side).toHaveLength(levels);
      const path = ask ? [pool.token1, pool.token0] : [pool.token0, pool.token1];
      for (const [i, sum] of cumulative(side).entries()) {
        const k = BigInt(i + 1);
        const mul = ask ? div + k * rangePpm : div - k * rangePpm;
        const amountIn = ask ? sum.amount1 : sum.amount0;
        const amountOut = ask ? sum.amount0 : sum.amount1;
        expect(await out(amountIn, path), `${pool.address} ${ask ? "ask" : "bid"} ${k}`).toBe(amountOut);
        // The pair's price after the swap is within the edge; one more unit in takes it past.
        const within = (i0: bigint, o: bigint) =>
          ask ? (r1 + i0) * r0 * div <= r1 * mul * (r0 - o) : (r1 - o) * r0 * div >= r1 * mul * (r0 + i0);
        expect(within(amountIn, amountOut)).toBe(true);
        expect(within(amountIn + 1n, await out(amountIn + 1n, path))).toBe(false);
        expect(side[i]!.sqrtPriceX96).toBeNull();
      }
    }
  }

  /** V3: QuoterV2 with each level's price limit gives the summed levels, ending on the edge. */
  async function checkV3(pool: BookPool, levels: number, range: string): Promise<void> {
    const client = clientOf();
    const blockNumber = BigInt(pool.blockNumber);
    const [sqrtPrice] = await client.readContract({
      address: pool.address,
      abi: slot0Abi,
      functionName: "slot0",
      blockNumber,
    });
    const quote = async (tokenIn: Address, tokenOut: Address, amountIn: bigint, limit: bigint) => {
      const { result } = await client.simulateContract({
        address: chain.v3!.quoter,
        abi: quoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [{ tokenIn, tokenOut, amountIn, fee: pool.feeTier!, sqrtPriceLimitX96: limit }],
        blockNumber,
      });
      return { amountOut: result[0], after: result[1] };
    };
    const div = 1_000_000n * BigInt(levels);
    const rangePpm = BigInt(Math.round(Number(range) * 10_000));
    for (const [ask, side] of [
      [true, pool.orderBook.asks],
      [false, pool.orderBook.bids],
    ] as const) {
      expect(side).toHaveLength(levels);
      const [tokenIn, tokenOut] = ask ? [pool.token1, pool.token0] : [pool.token0, pool.token1];
      for (const [i, sum] of cumulative(side).entries()) {
        const k = BigInt(i + 1);
        const limit = BigInt(sum.sqrtPriceX96!);
        // The edge: the state price times (1 +- k x range / levels), as a square root.
        expect(limit).toBe(
          isqrt((sqrtPrice * sqrtPrice * (ask ? div + k * rangePpm : div - k * rangePpm)) / div),
        );
        const amountIn = ask ? sum.amount1 : sum.amount0;
        const amountOut = ask ? sum.amount0 : sum.amount1;
        const at = await quote(tokenIn, tokenOut, amountIn, limit);
        expect(at.amountOut, `${pool.address} ${ask ? "ask" : "bid"} ${k}`).toBe(amountOut);
        // On the edge, unless the pool has no liquidity up to it (the swap then stops at its last tick).
        if (BigInt(side[i]!.amount0) > 0n) expect(at.after).toBe(limit);
        // One unit less stops short of the edge: the level's input is all it takes to get there.
        if (amountIn > 0n)
          expect((await quote(tokenIn, tokenOut, amountIn - 1n, limit)).after).not.toBe(limit);
      }
    }
  }

  test.each([
    [1, "2"],
    [7, "2"],
    [50, "2"],
    [4, "10"],
  ])(
    "behavior: levels=%i range=%s percent: each level is what the pool trades between its edges, on chain (V2 router, V3 QuoterV2), both sides",
    async (levels, range) => {
      const pools = await poolsToCheck(levels, range);
      expect(pools.map((p) => p.kind)).toEqual(["V2", "V3"]);
      for (const pool of pools) {
        const amounts = [...pool.orderBook.asks, ...pool.orderBook.bids].map((l) => BigInt(l.amount0));
        expect(amounts.some((a) => a > 0n)).toBe(true);
        if (pool.kind === "V2") await checkV2(pool, levels, range);
        else await checkV3(pool, levels, range);
      }
    },
    120_000,
  );

  test("behavior: the best prices are the mid over and times one minus the fee; levels move away from them", async () => {
    for (const pool of await poolsToCheck(5, "2")) {
      const { midPrice, bestAsk, bestBid, asks, bids } = pool.orderBook;
      const d0 = pool.reserve0.token.decimals;
      const d1 = pool.reserve1.token.decimals;
      const feeDen = pool.kind === "V2" ? 10_000n : 1_000_000n;
      const fee = BigInt(pool.kind === "V2" ? pool.feeBps : pool.feeTier!);
      const client = clientOf();
      let num: bigint;
      let den: bigint;
      if (pool.kind === "V2") {
        const [r0, r1] = await client.readContract({
          address: pool.address,
          abi: pairAbi,
          functionName: "getReserves",
          blockNumber: BigInt(pool.blockNumber),
        });
        [num, den] = [r1, r0];
      } else {
        const [sqrt] = await client.readContract({
          address: pool.address,
          abi: slot0Abi,
          functionName: "slot0",
          blockNumber: BigInt(pool.blockNumber),
        });
        [num, den] = [sqrt * sqrt, 1n << 192n];
      }
      expect(midPrice).toBe(priceOf(num, den, d0, d1));
      expect(bestBid).toBe(priceOf(num * (feeDen - fee), den * feeDen, d0, d1));
      const up = priceOf(num * feeDen, den * (feeDen - fee), d0, d1);
      // Asks round up (the last digit may be one more than truncation).
      expect(Number(bestAsk)).toBeCloseTo(Number(up), 10);
      const prices = (levels: Level[]) => levels.map((l) => Number(l.price));
      const a = prices(asks);
      const b = prices(bids);
      expect(a).toEqual([...a].sort((x, y) => x - y));
      expect(b).toEqual([...b].sort((x, y) => y - x));
      expect(a[0]!).toBeGreaterThan(Number(bestAsk));
      expect(b[0]!).toBeLessThan(Number(bestBid));
    }
  }, 60_000);

  test("behavior: /orderbook in CoinGecko's and CoinMarketCap's formats is Pool.orderBook, depth as the standards define it", async () => {
    const [v2, v3] = await poolsToCheck(50, "2");
    for (const pool of [v2!, v3!]) {
      const id = `${pool.token0}_${pool.token1}_${pool.address}`;
      const d0 = pool.reserve0.token.decimals;
      const side = (levels: Level[]) => levels.map((l) => [l.price, formatDecimal(BigInt(l.amount0), d0)]);
      const cg = await api.call(`/coingecko/eth/orderbook?ticker_id=${id}`);
      expect(cg.status).toBe(200);
      expect(ajv.validate(openApiSchema("CoinGeckoOrderBook"), cg.body), JSON.stringify(ajv.errors)).toBe(
        true,
      );
      const body = cg.body as { ticker_id: string; timestamp: number; bids: string[][]; asks: string[][] };
      expect(body.ticker_id).toBe(id);
      // Default depth 100: 50 a side.
      expect(body.asks).toEqual(side(pool.orderBook.asks));
      expect(body.bids).toEqual(side(pool.orderBook.bids));
      expect(cg.headers.get("x-indexed-block")).toBe(pool.blockNumber);

      const cmc = await api.call(`/cmc/eth/orderbook/${id}?depth=100&level=2`);
      expect(cmc.status).toBe(200);
      expect(ajv.validate(openApiSchema("CmcOrderBook"), cmc.body), JSON.stringify(ajv.errors)).toBe(true);
      expect((cmc.body as { asks: unknown }).asks).toEqual(body.asks);
      expect((cmc.body as { bids: unknown }).bids).toEqual(body.bids);

      const small = (await api.call(`/coingecko/eth/orderbook?ticker_id=${id}&depth=10`)).body as typeof body;
      expect([small.asks.length, small.bids.length]).toEqual([5, 5]);
      const full = (await api.call(`/cmc/eth/orderbook/${id}?depth=0`)).body as typeof body;
      expect([full.asks.length, full.bids.length]).toEqual([500, 500]);
      const top = (await api.call(`/cmc/eth/orderbook/${id}?level=1`)).body as typeof body;
      expect([top.asks.length, top.bids.length]).toEqual([1, 1]);
      const wide = (await api.call(`/coingecko/eth/orderbook?ticker_id=${id}&depth=8&range=10`))
        .body as typeof body;
      const graph = await graphql<{ pool: BookPool }>(
        `{ pool(network: eth, address: "${pool.address}") { ${POOL_FIELDS(4, "10")} } }`,
      );
      expect(wide.asks).toEqual(side(graph.pool.orderBook.asks));
    }
  }, 60_000);

  test("behavior: CoinMarketCap summary's lowest_ask / highest_bid and CoinGecko tickers' ask / bid are the best prices", async () => {
    const pools = await poolsToCheck(0, "2");
    const summary = (await api.call("/cmc/eth/summary")).body as {
      trading_pairs: string;
      lowest_ask: string;
      highest_bid: string;
    }[];
    const tickers = (await api.call("/coingecko/eth/tickers")).body as {
      pool_id: string;
      ask: string;
      bid: string;
    }[];
    for (const pool of pools) {
      const row = summary.find((s) => s.trading_pairs.endsWith(pool.address))!;
      expect([row.lowest_ask, row.highest_bid]).toEqual([pool.orderBook.bestAsk, pool.orderBook.bestBid]);
      const ticker = tickers.find((t) => t.pool_id === pool.address)!;
      expect([ticker.ask, ticker.bid]).toEqual([pool.orderBook.bestAsk, pool.orderBook.bestBid]);
    }
    expect(summary.every((s) => Number(s.lowest_ask) > Number(s.highest_bid))).toBe(true);
  }, 60_000);

  test("error: a bad depth, level, range or pair is a 400 that names it", async () => {
    const [v2] = await poolsToCheck(1, "2");
    const id = `${v2!.token0}_${v2!.token1}_${v2!.address}`;
    const cases: [string, RegExp][] = [
      [`/coingecko/eth/orderbook?ticker_id=${id}&depth=1001`, /depth/],
      [`/coingecko/eth/orderbook?ticker_id=${id}&depth=-2`, /depth/],
      [`/coingecko/eth/orderbook?ticker_id=${id}&range=100`, /range/],
      [`/coingecko/eth/orderbook?ticker_id=${id}&range=0`, /range/],
      [`/coingecko/eth/orderbook?ticker_id=${v2!.token1}_${v2!.token0}_${v2!.address}`, /ticker_id/],
      ["/coingecko/eth/orderbook", /ticker_id/],
      [`/cmc/eth/orderbook/${id}?level=4`, /level/],
      [`/cmc/eth/orderbook/nope`, /market_pair/],
    ];
    for (const [path, message] of cases) {
      const answer = await api.call(path);
      expect(answer.status, path).toBe(400);
      expect((answer.body as { error: string }).error, path).toMatch(message);
    }
    const graph = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ pool(network: eth, address: "${v2!.address}") { orderBook(levels: 501) { bestAsk } } }`,
      }),
    });
    expect(JSON.stringify(graph.body)).toMatch(/levels must be between 0 and 500/);
  }, 60_000);
});
