import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pino } from "pino";
import { createPublicClient, http, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { NetworkConfig } from "../../src/config/types.js";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Address } from "../../src/domain/types.js";
import { dayStatsFrom } from "../../src/graphql/context/createDayStatsLoaders.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { createPoolIndex } from "../../src/pricing/createPoolIndex.js";
import { getTokenPriceUsd } from "../../src/pricing/getTokenPriceUsd.js";
import type { Store } from "../../src/store/types.js";
import { createGraphqlExecutor } from "../support/createGraphqlExecutor.js";
import { sendSwap, startTestDevnet } from "../support/devnet.js";
import { listAllTrades } from "../support/listAllTrades.js";
import { pricingParamsOf } from "../support/pricingParams.js";
import { createTestStores, type TestStore } from "../support/testStores.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { readAllPages, readPage } from "./readConnection.js";
import { gql } from "./support.js";

// The real path: anvil's DEX pools -> indexer -> store (SQLite and PostgreSQL) and live pool graph
// -> yoga. Every figure is checked against the chain (getReserves at the answer's block) and a
// recompute from the stored trades, with the USD prices of the pricing rules over the chain's
// reserves.
const silent = { info() {}, warn() {}, error() {} };
const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
]);
const POOL_FIELDS = `address dex token0 token1 feeBps network blockNumber liquidityUSD volumeUSD24h tradeCount24h
  volumeToken0_24h volumeToken1_24h priceHigh24h priceLow24h
  reserve0 { amount token { address decimals } } reserve1 { amount token { address decimals } }`;
const POOLS = /* GraphQL */ `
  query P($token: String, $orderBy: PoolOrder, $first: Int, $after: String) {
    pools(token: $token, orderBy: $orderBy, first: $first, after: $after) {
      edges { cursor node { ${POOL_FIELDS} } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

interface ShownPool {
  address: string;
  dex: string;
  token0: string;
  token1: string;
  feeBps: number;
  network: string;
  blockNumber: string;
  liquidityUSD: string | null;
  volumeUSD24h: string | null;
  tradeCount24h: number;
  volumeToken0_24h: string;
  volumeToken1_24h: string;
  priceHigh24h: string | null;
  priceLow24h: string | null;
  reserve0: { amount: string; token: { address: string; decimals: number } };
  reserve1: { amount: string; token: { address: string; decimals: number } };
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let config: NetworkConfig;

const clientOf = () => createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });
const usd = (value: bigint | undefined) => (value === undefined ? null : formatDecimal(value, 18));

beforeAll(async () => {
  // V2 pools only: the recomputes below read pairs' reserves (getReserves) and value them by the
  // V2 pricing rules (the demo's V3 pools would need their own there).
  devnet = await startTestDevnet({ seed: 29, v3: false });
  chain = devnet.chains[0]!;
  config = { ...devnet.networks[0]!, pollIntervalMs: 100 };
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

describe.each(createTestStores())("pools on $name", (testStore: TestStore) => {
  let store: Store;
  let indexing: Indexing;
  let yoga: GraphqlServer;

  beforeAll(async () => {
    store = await testStore.open();
    indexing = createIndexing({ networks: [config], store, log: silent });
    yoga = createGraphqlServer({ reader: indexing.views, logger: pino({ level: "silent" }) });
    indexing.start();
    await caughtUp();
  }, 180_000);

  afterAll(async () => {
    await indexing?.stop();
    await store?.close();
    await testStore.cleanup();
  });

  async function caughtUp(): Promise<void> {
    await waitUntilIndexed(indexing.views, config.name, { to: { rpcUrl: chain.rpcUrl } });
  }

  test("behavior: the in-process executor (compiled, as the tests' reference answers run operations) answers pools with their reserves' tokens as GraphQL does", async () => {
    const operation = /* GraphQL */ `
      query ($network: Network!) {
        pools(network: $network, first: 50) {
          edges { node { address reserve0 { amount token { address symbol decimals } } reserve1 { amount token { address symbol } } } }
        }
      }
    `;
    const executor = createGraphqlExecutor({ reader: indexing.views, schema: buildSchema() });
    // A fresh session: no token of this request is loaded before the reserves ask for theirs.
    const compiled = await executor.session().run<{ pools: unknown }>(executor.prepare(operation), {
      network: config.name,
    });
    const served = await gql(yoga, operation, { network: config.name });
    expect(served.body.errors).toBeUndefined();
    expect(compiled.pools).toEqual(served.body.data!.pools);
    expect((compiled.pools as { edges: unknown[] }).edges.length).toBeGreaterThan(5);
  });

  const page = (variables: Record<string, unknown>) => readPage<ShownPool>(yoga, POOLS, "pools", variables);
  const allPages = (variables: Record<string, unknown>, first: number) =>
    readAllPages<ShownPool>(yoga, POOLS, "pools", variables, first);

  /** The pricing rules over the chain's own reserves at `block`, rebuilt from getReserves. */
  async function chainPrices(block: bigint) {
    const pairs = await store.listPairs(config.name);
    const params = await pricingParamsOf(config, store);
    const index = createPoolIndex();
    const reserves = new Map<string, [bigint, bigint]>();
    for (const pair of pairs) {
      const [reserve0, reserve1] = await clientOf().readContract({
        address: pair.address,
        abi: pairAbi,
        functionName: "getReserves",
        blockNumber: block,
      });
      reserves.set(pair.address, [reserve0, reserve1]);
      index.update({ ...pair, reserve0, reserve1 });
    }
    const priceOf = (token: Address) => getTokenPriceUsd(index, params, token);
    const liquidityOf = (pool: ShownPool): bigint | undefined => {
      const [r0, r1] = reserves.get(pool.address)!;
      const side = (token: string, reserve: bigint) => {
        const price = priceOf(token as Address);
        return price === undefined
          ? undefined
          : (reserve * price) / 10n ** BigInt(params.decimals(token as Address)!);
      };
      const [a, b] = [side(pool.token0, r0), side(pool.token1, r1)];
      if (a !== undefined && b !== undefined) return a + b;
      return a === undefined ? (b === undefined ? undefined : 2n * b) : 2n * a;
    };
    return { pairs, reserves, priceOf, liquidityOf };
  }

  /**
   * Volume and trades per pool over the 24-hour stats window (the hourly buckets), or over the
   * rolling window (after, block's time] when `rolling` is given, recomputed from the stored trades.
   */
  async function expectedDayStats(now: number, rolling?: { after: number; block: bigint }) {
    const from = rolling === undefined ? dayStatsFrom(now) : rolling.after + 1;
    const out = new Map<
      string,
      { volume: bigint; count: number; v0: bigint; v1: bigint; prices: bigint[] }
    >();
    for (const trade of await listAllTrades(store, config.name, from)) {
      if (trade.marks === undefined || trade.timestamp - (trade.timestamp % 3_600) > now) continue;
      if (rolling !== undefined && trade.blockNumber > rolling.block) continue;
      trade.marks.hops.forEach((hop, i) => {
        const pool = trade.pools[i]!;
        const entry = out.get(pool) ?? { volume: 0n, count: 0, v0: 0n, v1: 0n, prices: [] };
        const [a0, a1] = hop.zeroForOne ? [hop.amountIn, hop.amountOut] : [hop.amountOut, hop.amountIn];
        out.set(pool, {
          volume: entry.volume + trade.volumeUsd,
          count: entry.count + 1,
          v0: entry.v0 + a0,
          v1: entry.v1 + a1,
          // Each pass's executed price of token0 in token1, smallest units, 10^36-scaled.
          prices: a0 > 0n && a1 > 0n ? [...entry.prices, (a1 * 10n ** 36n) / a0] : entry.prices,
        });
      });
    }
    return out;
  }

  /** A 10^36-scaled smallest-units price as token1 per whole token0 (as the pool candles print it). */
  const poolPrice = (raw: bigint, d0: number, d1: number) =>
    36 + d1 - d0 >= 0
      ? formatDecimal(raw, 36 + d1 - d0)
      : formatDecimal(raw * 10n ** BigInt(d0 - d1 - 36), 0);

  /** Runs `read` until the hour of the 24-hour window did not change while it ran. */
  async function withinOneWindow<T>(read: () => Promise<T>): Promise<{ value: T; now: number }> {
    for (;;) {
      const now = Math.floor(Date.now() / 1000);
      const value = await read();
      if (dayStatsFrom(Math.floor(Date.now() / 1000)) === dayStatsFrom(now)) return { value, now };
    }
  }

  test("behavior: every pool's reserves are the chain's at its block, its liquidity the reserves valued by the pricing rules, ordered highest first", async () => {
    const shown = await allPages({ orderBy: "LIQUIDITY" }, 7);
    const block = BigInt(shown[0]!.blockNumber);
    // One indexed state across the pages (the chain is still: nothing mines here).
    expect(new Set(shown.map((pool) => pool.blockNumber)).size).toBe(1);
    const { pairs, reserves, liquidityOf } = await chainPrices(block);
    expect(shown.map((pool) => pool.address).sort()).toEqual(pairs.map((pair) => pair.address).sort());
    expect(shown.length).toBeGreaterThan(8);
    for (const pool of shown) {
      const [r0, r1] = reserves.get(pool.address)!;
      expect([pool.reserve0.amount, pool.reserve1.amount], pool.address).toEqual([
        r0.toString(),
        r1.toString(),
      ]);
      expect([pool.reserve0.token.address, pool.reserve1.token.address]).toEqual([pool.token0, pool.token1]);
      expect(pool.liquidityUSD, pool.address).toBe(usd(liquidityOf(pool)));
      const pair = pairs.find((p) => p.address === pool.address)!;
      expect([pool.dex, pool.feeBps, pool.network]).toEqual([pair.dex, pair.feeBps, config.name]);
    }
    const key = (pool: ShownPool) => liquidityOf(pool) ?? -1n;
    const expected = [...shown].sort((a, b) =>
      key(a) !== key(b) ? (key(a) > key(b) ? -1 : 1) : a.address < b.address ? -1 : 1,
    );
    expect(shown.map((pool) => pool.address)).toEqual(expected.map((pool) => pool.address));
    // Not vacuous: both sides priced, and pools with one side priced or none (the unlisted tokens' pools).
    const priced = shown.filter((pool) => pool.liquidityUSD !== null);
    expect(priced.length).toBeGreaterThan(5);
    expect(Number(priced[0]!.liquidityUSD)).toBeGreaterThan(1_000);
  });

  test("behavior: the 24-hour volume and trade count of every pool equal a recompute from the stored trades, and order VOLUME_24H", async () => {
    const { value: shown, now } = await withinOneWindow(() => allPages({ orderBy: "VOLUME_24H" }, 4));
    const stats = await expectedDayStats(now);
    expect([...stats.values()].reduce((sum, s) => sum + s.count, 0)).toBeGreaterThan(20);
    for (const pool of shown) {
      expect([pool.volumeUSD24h, pool.tradeCount24h], pool.address).toEqual([
        usd(stats.get(pool.address)?.volume ?? 0n),
        stats.get(pool.address)?.count ?? 0,
      ]);
    }
    // The token amounts and price range are the rolling 24 hours up to the indexed block's time:
    // the stored trades' passes through the pool with block time in (at - 24 h, at].
    const block = BigInt(shown[0]!.blockNumber);
    const at = (await indexing.views.getStoredBlock(config.name, block))!.timestamp;
    const rolling = await expectedDayStats(at, { after: at - 86_400, block });
    let rollingTraded = 0;
    for (const pool of shown) {
      const [d0, d1] = [pool.reserve0.token.decimals, pool.reserve1.token.decimals];
      const entry = rolling.get(pool.address);
      const prices = entry?.prices ?? [];
      if (prices.length > 0) rollingTraded++;
      expect([pool.volumeToken0_24h, pool.volumeToken1_24h], pool.address).toEqual([
        formatDecimal(entry?.v0 ?? 0n, d0),
        formatDecimal(entry?.v1 ?? 0n, d1),
      ]);
      expect([pool.priceHigh24h, pool.priceLow24h], pool.address).toEqual(
        prices.length === 0
          ? [null, null]
          : [
              poolPrice(
                prices.reduce((a, b) => (a > b ? a : b)),
                d0,
                d1,
              ),
              poolPrice(
                prices.reduce((a, b) => (a < b ? a : b)),
                d0,
                d1,
              ),
            ],
      );
    }
    expect(rollingTraded).toBeGreaterThan(0);
    // Where no stored trade can change any more: at or before the indexed block's time.
    const settled = await indexing.views.settledBefore(config.name);
    expect(settled).toBeDefined();
    expect(settled!).toBeLessThanOrEqual(now);
    const volume = (pool: ShownPool) => stats.get(pool.address)?.volume ?? 0n;
    const expected = [...shown].sort((a, b) =>
      volume(a) !== volume(b) ? (volume(a) > volume(b) ? -1 : 1) : a.address < b.address ? -1 : 1,
    );
    expect(shown.map((pool) => pool.address)).toEqual(expected.map((pool) => pool.address));
    expect(volume(shown[0]!)).toBeGreaterThan(0n);
  });

  test("behavior: a swap mined on the chain moves its pool's reserves, trade count and USD volume by what the swap says", async () => {
    const usdt = chain.tokens.USDT!.toLowerCase();
    const poolQuery = `query($a: String!) { pool(address: $a) { ${POOL_FIELDS} } }`;
    const before = await page({ token: "USDT", first: 100 });
    // The native coin means its wrapped token: the same pools as WBNB's.
    const byNative = await page({ token: "BNB", first: 100 });
    const wrapped = await page({ token: config.native.wrapped, first: 100 });
    expect(byNative.edges.map((e) => e.node.address)).toEqual(wrapped.edges.map((e) => e.node.address));
    expect(before.edges.every((e) => e.node.token0 === usdt || e.node.token1 === usdt)).toBe(true);
    const target = before.edges.find(
      (e) =>
        [e.node.token0, e.node.token1].includes(config.native.wrapped) && e.node.dex === chain.dexes[0]!.name,
    )!.node;
    const hash = await sendSwap(chain, {
      path: ["", "USDT"],
      amountIn: 10n ** 17n,
      trader: chain.traders[4]!,
    });
    await caughtUp();
    const { value: after } = await withinOneWindow(
      async () => (await gql(yoga, poolQuery, { a: target.address })).body.data?.pool as ShownPool,
    );
    const swap = (await listAllTrades(store, config.name, 0)).find((t) => t.txHash === hash.toLowerCase())!;
    expect(swap.pools).toEqual([target.address]);
    expect(after.tradeCount24h).toBe(target.tradeCount24h + 1);
    const scaled = (text: string) => {
      const [whole, fraction = ""] = text.split(".");
      return BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"));
    };
    expect(scaled(after.volumeUSD24h!) - scaled(target.volumeUSD24h!)).toBe(swap.volumeUsd);
    expect(swap.volumeUsd).toBeGreaterThan(0n);
    const [r0, r1] = await clientOf().readContract({
      address: target.address as Address,
      abi: pairAbi,
      functionName: "getReserves",
    });
    expect([after.reserve0.amount, after.reserve1.amount]).toEqual([r0.toString(), r1.toString()]);
    expect(BigInt(after.blockNumber)).toBe(await clientOf().getBlockNumber({ cacheTime: 0 }));
    // The ranking by volume (shared between requests of one indexed state) moved with the block.
    const ranked = await allPages({ orderBy: "VOLUME_24H" }, 50);
    expect(ranked.find((pool) => pool.address === target.address)!.volumeUSD24h).toBe(after.volumeUSD24h);
    // A quote's route shows the same pools with their market fields.
    const { body } = await gql(
      yoga,
      `{ quote(sellToken: "BNB", buyToken: "USDT", sellAmount: "1000") { route { pools { address liquidityUSD tradeCount24h } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const routed = (body.data!.quote as { route: { pools: ShownPool[] } }).route.pools;
    const shown = await page({ first: 100 });
    for (const pool of routed) {
      const same = shown.edges.find((e) => e.node.address === pool.address)!.node;
      expect(pool).toEqual({
        address: same.address,
        liquidityUSD: same.liquidityUSD,
        tradeCount24h: same.tradeCount24h,
      });
    }
  });

  test("error: bad first, cursors, tokens and addresses are BAD_REQUEST; an unknown pool is null", async () => {
    const first = await page({ orderBy: "LIQUIDITY", first: 1 });
    for (const variables of [
      { first: 0 },
      { first: 101 },
      { after: "nonsense" },
      { orderBy: "VOLUME_24H", after: first.pageInfo.endCursor },
      { token: "NOSUCHTOKEN" },
      { token: "0x12" },
    ]) {
      const { status, body } = await gql(yoga, POOLS, variables);
      expect(body.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe("BAD_REQUEST");
      expect(status).toBe(400);
    }
    const bad = await gql(yoga, `{ pool(address: "0x1234") { address } }`);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    const missing = await gql(yoga, `{ pool(address: "0x${"ab".repeat(20)}") { address } }`);
    expect(missing.body).toEqual({ data: { pool: null } });
    // A huge first is refused by the cost limit before any read.
    const huge = await gql(yoga, POOLS, { first: 1_000_000 });
    expect(huge.body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
  });
});
