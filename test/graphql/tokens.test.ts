import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Address, Trade, TradeMarks } from "../../src/domain/types.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import type { PoolState } from "../../src/pricing/types.js";
import type { MarketReader } from "../../src/views/types.js";
import {
  BSC,
  BSC_POOLS,
  createFixtureReader,
  ETH,
  ETH_POOLS,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";
import { spyReader } from "../support/spyReader.js";
import { type ConnectionPage, readAllPages, readPage } from "./readConnection.js";
import { createMemoryLogger, gql } from "./support.js";

const E18 = 10n ** 18n;
const HOUR = 3_600;
const DAY = 86_400;
const FIELDS = "address symbol priceUSD priceNative volumeUSD24h tradeCount24h liquidityUSD";
const TOKENS = /* GraphQL */ `
  query T($network: Network, $orderBy: TokenOrder, $first: Int, $after: String) {
    tokens(network: $network, orderBy: $orderBy, first: $first, after: $after) {
      edges { cursor node { ${FIELDS} } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

interface ShownToken {
  address: string;
  symbol: string;
  priceUSD: string | null;
  priceNative: string | null;
  volumeUSD24h: string;
  tradeCount24h: number;
  liquidityUSD: string | null;
}
type TokenPage = ConnectionPage<ShownToken>;

let fixture: Fixture;
let yoga: GraphqlServer;

// The fixture's decimals (bsc: all 18; eth: USDC 6, WBTC 8).
const DECIMALS: Record<string, number> = { [ETH.USDC]: 6, [ETH.WBTC]: 8 };
const decimalsOf = (token: string) => DECIMALS[token] ?? 18;
const pow10 = (n: number) => 10n ** BigInt(n);

/** The network's pricing inputs, written out from the fixture's configuration. */
const NETWORKS = {
  bsc: { pools: BSC_POOLS, wrapped: BSC.WBNB, stables: [BSC.USDT, BSC.USDC], bases: [BSC.WBNB, BSC.BTCB] },
  eth: { pools: ETH_POOLS, wrapped: ETH.WETH, stables: [ETH.USDC, ETH.DAI], bases: [ETH.WETH] },
} as const;
const MIN_LIQUIDITY = 1_000n * E18;

// The pricing rules again, from README "Pricing": stables are 1 USD, the wrapped native coin is
// the stable-reserve-weighted price of its stable pairs, another token the price from its most
// liquid pair with a whitelisted token whose side holds at least the minimum liquidity.
function expectedPrice(network: "bsc" | "eth", token: string): bigint | undefined {
  const { pools, wrapped, stables, bases } = NETWORKS[network];
  const reserve = (pool: PoolState, of: string) => (pool.token0 === of ? pool.reserve0 : pool.reserve1);
  const other = (pool: PoolState, of: string) => (pool.token0 === of ? pool.token1 : pool.token0);
  const isStable = (t: string) => (stables as readonly string[]).includes(t);
  const native = (): bigint | undefined => {
    let sum = 0n;
    let weight = 0n;
    for (const pool of pools) {
      if (pool.token0 !== wrapped && pool.token1 !== wrapped) continue;
      const stable = other(pool, wrapped);
      if (!isStable(stable)) continue;
      const usd = (reserve(pool, stable) * E18) / pow10(decimalsOf(stable));
      if (usd < MIN_LIQUIDITY) continue;
      sum += ((usd * pow10(decimalsOf(wrapped))) / reserve(pool, wrapped)) * usd;
      weight += usd;
    }
    return weight === 0n ? undefined : sum / weight;
  };
  const fromPairs = (of: string, sides: readonly string[], priceOf: (side: string) => bigint | undefined) => {
    let best = -1n;
    let price: bigint | undefined;
    for (const pool of pools) {
      if (pool.token0 !== of && pool.token1 !== of) continue;
      const side = other(pool, of);
      if (!sides.includes(side)) continue;
      const sidePrice = priceOf(side);
      if (sidePrice === undefined) continue;
      const liquidity = (reserve(pool, side) * sidePrice) / pow10(decimalsOf(side));
      if (liquidity < MIN_LIQUIDITY || liquidity <= best) continue;
      best = liquidity;
      price =
        (sidePrice * reserve(pool, side) * pow10(decimalsOf(of))) /
        (reserve(pool, of) * pow10(decimalsOf(side)));
    }
    return price;
  };
  const anchor = (t: string) => (isStable(t) ? E18 : t === wrapped ? native() : undefined);
  if (isStable(token)) return E18;
  if (token === wrapped) return native();
  const whitelisted = (side: string) =>
    anchor(side) ?? fromPairs(side, [...stables, wrapped], (a) => anchor(a));
  return fromPairs(token, [...bases, ...stables, wrapped], whitelisted);
}

/** The token's reserves across the fixture's pools, valued at the expected price. */
function expectedLiquidity(network: "bsc" | "eth", token: string): bigint | undefined {
  const price = expectedPrice(network, token);
  if (price === undefined) return undefined;
  return NETWORKS[network].pools
    .filter((pool) => pool.token0 === token || pool.token1 === token)
    .reduce(
      (sum, pool) =>
        sum + ((pool.token0 === token ? pool.reserve0 : pool.reserve1) * price) / pow10(decimalsOf(token)),
      0n,
    );
}

/**
 * Volume and trades per token recomputed from the stored trades in the last 24 hours: each side
 * of a trade with candle marks (the native coin as its wrapped token, one token on both sides
 * once) counts the trade's volumeUSD. The test's trades sit well inside or well outside the
 * window, so its 24-25 h edge does not matter.
 */
function expectedDayStats(
  trades: readonly Trade[],
  now: number,
): Map<string, { volume: bigint; count: number }> {
  const out = new Map<string, { volume: bigint; count: number }>();
  for (const trade of trades) {
    if (trade.marks === undefined || trade.timestamp < now - DAY) continue;
    const side = (ref: string) => (ref === "" ? trade.marks!.native! : ref);
    for (const token of new Set([side(trade.tokenIn), side(trade.tokenOut)])) {
      const entry = out.get(token) ?? { volume: 0n, count: 0 };
      out.set(token, { volume: entry.volume + trade.volumeUsd, count: entry.count + 1 });
    }
  }
  return out;
}

const usd = (value: bigint | undefined) => (value === undefined ? null : formatDecimal(value, 18));

function bscTrade(
  i: number,
  ago: number,
  trade: Pick<Trade, "tokenIn" | "amountIn" | "tokenOut" | "amountOut" | "volumeUsd" | "pools">,
  marks: Omit<TradeMarks, "native">,
): Trade {
  return {
    network: "bsc",
    txHash: nextTxHash(),
    blockNumber: 40_000_001n + BigInt(i),
    timestamp: fixture.now - ago,
    txIndex: 0,
    logIndex: 0,
    sender: TRADERS.carol,
    tracked: true,
    ...trade,
    marks: { ...marks, native: trade.tokenIn === "" || trade.tokenOut === "" ? BSC.WBNB : undefined },
  };
}

beforeAll(async () => {
  fixture = await createFixtureReader();
  yoga = createGraphqlServer({ reader: fixture.reader, logger: createMemoryLogger("warn").logger });
  // Oldest first (block order); two outside the window, four inside.
  await fixture.commit("bsc", [
    bscTrade(
      0,
      2 * DAY,
      {
        tokenIn: BSC.USDT,
        amountIn: 50n * E18,
        tokenOut: BSC.CAKE,
        amountOut: 25n * E18,
        volumeUsd: 50n * E18,
        pools: [POOLS.WBNB_USDT, POOLS.CAKE_WBNB],
      },
      {
        priceInUsd: E18,
        priceOutUsd: 2n * E18,
        hops: [
          { zeroForOne: true, amountIn: 50n * E18, amountOut: E18 / 12n },
          { zeroForOne: false, amountIn: E18 / 12n, amountOut: 25n * E18 },
        ],
      },
    ),
    bscTrade(
      1,
      26 * HOUR,
      {
        tokenIn: BSC.CAKE,
        amountIn: 10n * E18,
        tokenOut: BSC.USDT,
        amountOut: 20n * E18,
        volumeUsd: 20n * E18,
        pools: [POOLS.CAKE_WBNB, POOLS.WBNB_USDT],
      },
      {
        priceInUsd: 2n * E18,
        priceOutUsd: E18,
        hops: [
          { zeroForOne: true, amountIn: 10n * E18, amountOut: E18 / 30n },
          { zeroForOne: false, amountIn: E18 / 30n, amountOut: 20n * E18 },
        ],
      },
    ),
    bscTrade(
      2,
      20 * HOUR,
      {
        tokenIn: BSC.BTCB,
        amountIn: E18,
        tokenOut: BSC.USDT,
        amountOut: 59_000n * E18,
        volumeUsd: 59_000n * E18,
        pools: [POOLS.BTCB_WBNB, POOLS.WBNB_USDT],
      },
      {
        priceInUsd: 60_000n * E18,
        priceOutUsd: E18,
        hops: [
          { zeroForOne: true, amountIn: E18, amountOut: 99n * E18 },
          { zeroForOne: false, amountIn: 99n * E18, amountOut: 59_000n * E18 },
        ],
      },
    ),
    bscTrade(
      3,
      3 * HOUR,
      {
        tokenIn: BSC.CAKE,
        amountIn: 1_000n * E18,
        tokenOut: "",
        amountOut: 3n * E18,
        volumeUsd: 2_000n * E18,
        pools: [POOLS.CAKE_WBNB],
      },
      {
        priceInUsd: 2n * E18,
        priceOutUsd: 600n * E18,
        hops: [{ zeroForOne: true, amountIn: 1_000n * E18, amountOut: 3n * E18 }],
      },
    ),
    bscTrade(
      4,
      HOUR / 2,
      {
        tokenIn: BSC.USDT,
        amountIn: 100n * E18,
        tokenOut: BSC.CAKE,
        amountOut: 49n * E18,
        volumeUsd: 100n * E18,
        pools: [POOLS.WBNB_USDT, POOLS.CAKE_WBNB],
      },
      {
        priceInUsd: E18,
        priceOutUsd: 2n * E18,
        hops: [
          { zeroForOne: true, amountIn: 100n * E18, amountOut: E18 / 6n },
          { zeroForOne: false, amountIn: E18 / 6n, amountOut: 49n * E18 },
        ],
      },
    ),
    bscTrade(
      5,
      HOUR / 4,
      {
        tokenIn: BSC.USDC,
        amountIn: 7n * E18,
        tokenOut: BSC.USDT,
        amountOut: 7n * E18,
        volumeUsd: 7n * E18,
        pools: [POOLS.USDC_USDT],
      },
      {
        priceInUsd: E18,
        priceOutUsd: E18,
        hops: [{ zeroForOne: false, amountIn: 7n * E18, amountOut: 7n * E18 }],
      },
    ),
  ]);
});

afterAll(() => fixture.close());

const page = (variables: Record<string, unknown>) => readPage<ShownToken>(yoga, TOKENS, "tokens", variables);
/** Every page of a network's tokens in one order, `first` at a time. */
const allPages = (variables: Record<string, unknown>, first: number) =>
  readAllPages<ShownToken>(yoga, TOKENS, "tokens", variables, first);

// The known bsc tokens: the token list for chain 56 (DAI's entry is for chain 1).
const BSC_KNOWN: Address[] = [BSC.WBNB, BSC.USDT, BSC.USDC, BSC.BTCB, BSC.CAKE, BSC.LONELY, BSC.DUST];

describe("Token market fields", () => {
  test("behavior: priceUSD, priceNative and liquidityUSD equal the pricing rules over the fixture pools", async () => {
    for (const [network, tokens] of [
      ["bsc", BSC_KNOWN],
      ["eth", [ETH.WETH, ETH.USDC, ETH.WBTC, ETH.DAI]],
    ] as const) {
      const nativeUsd = expectedPrice(network, NETWORKS[network].wrapped)!;
      for (const token of tokens) {
        const { body } = await gql(
          yoga,
          `query($n: Network, $t: String!) { token(network: $n, symbolOrAddress: $t) { priceUSD priceNative liquidityUSD } }`,
          { n: network, t: token },
        );
        const price = expectedPrice(network, token);
        expect(body.data?.token, `${network} ${token}`).toEqual({
          priceUSD: usd(price),
          priceNative: price === undefined ? null : usd((price * E18) / nativeUsd),
          liquidityUSD: usd(expectedLiquidity(network, token)),
        });
      }
    }
    // Pinned once so the recompute itself is checked: BNB 600, CAKE 1.9998, BTC 60,000 (8 decimals on eth).
    expect([expectedPrice("bsc", BSC.WBNB), expectedPrice("bsc", BSC.CAKE)]).toEqual([
      600n * E18,
      19_998n * 10n ** 14n,
    ]);
    expect(expectedLiquidity("eth", ETH.WBTC)).toBe(600_000n * E18);
    // Thin (DUST) and pool-less (LONELY) tokens are unpriced.
    expect([expectedPrice("bsc", BSC.DUST), expectedPrice("bsc", BSC.LONELY)]).toEqual([
      undefined,
      undefined,
    ]);
  });

  test("behavior: the 24-hour volume and trade count equal a recompute from the stored trades", async () => {
    const stats = expectedDayStats(fixture.trades.bsc, fixture.now);
    // The recompute sees the test's four trades in the window and not the two older ones.
    expect(stats.get(BSC.CAKE)).toEqual({ volume: 2_100n * E18, count: 2 });
    for (const token of BSC_KNOWN) {
      const { body } = await gql(
        yoga,
        `query($t: String!) { token(symbolOrAddress: $t) { volumeUSD24h tradeCount24h } }`,
        { t: token },
      );
      expect(body.data?.token, token).toEqual({
        volumeUSD24h: usd(stats.get(token)?.volume ?? 0n),
        tradeCount24h: stats.get(token)?.count ?? 0,
      });
    }
  });

  test("behavior: the native coin shows its wrapped token's market, priced at 1 native coin", async () => {
    const shown = async (t: string) =>
      (await gql(yoga, `query($t: String!) { token(symbolOrAddress: $t) { ${FIELDS} } }`, { t })).body.data
        ?.token as ShownToken;
    const [bnb, wbnb] = [await shown("BNB"), await shown("WBNB")];
    expect(bnb).toEqual({ ...wbnb, address: "", symbol: "BNB" });
    expect(wbnb.priceNative).toBe("1");
    expect(wbnb.tradeCount24h).toBe(1);
  });

  test("behavior: quote and swap tokens carry the same market fields", async () => {
    const { body } = await gql(
      yoga,
      `{ quote(sellToken: "CAKE", buyToken: "USDT") { sellToken { priceUSD } buyToken { priceUSD } }
         swaps(first: 1, token: "CAKE") { edges { node { sell { token { address priceUSD } } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.quote).toEqual({
      sellToken: { priceUSD: usd(expectedPrice("bsc", BSC.CAKE)) },
      buyToken: { priceUSD: "1" },
    });
    const swaps = body.data?.swaps as {
      edges: { node: { sell: { token: { address: string; priceUSD: string | null } } } }[];
    };
    const sold = swaps.edges[0]!.node.sell.token;
    expect(sold.priceUSD).toBe(usd(expectedPrice("bsc", sold.address === "" ? BSC.WBNB : sold.address)));
  });
});

describe("tokens", () => {
  test("behavior: ordered by 24-hour volume, highest first then by address, paged by cursor", async () => {
    const stats = expectedDayStats(fixture.trades.bsc, fixture.now);
    const volume = (t: string) => stats.get(t)?.volume ?? 0n;
    const expected = [...BSC_KNOWN].sort((a, b) =>
      volume(a) !== volume(b) ? (volume(a) > volume(b) ? -1 : 1) : a < b ? -1 : 1,
    );
    expect(expected.slice(0, 4)).toEqual([BSC.USDT, BSC.BTCB, BSC.CAKE, BSC.WBNB]);
    const shown = await allPages({ orderBy: "VOLUME_24H" }, 3);
    expect(shown.map((token) => token.address)).toEqual(expected);
    expect(shown.map((token) => token.volumeUSD24h)).toEqual(expected.map((t) => usd(volume(t))));
    // The default order is by volume; one page holds them all.
    const whole = await page({ first: 100 });
    expect(whole.edges.map((edge) => edge.node.address)).toEqual(expected);
    expect(whole.pageInfo).toEqual({ hasNextPage: false, endCursor: whole.edges.at(-1)!.cursor });
  });

  test("behavior: ordered by liquidity, unpriced tokens last", async () => {
    const liquidity = (t: string) => expectedLiquidity("bsc", t) ?? -1n;
    const expected = [...BSC_KNOWN].sort((a, b) =>
      liquidity(a) !== liquidity(b) ? (liquidity(a) > liquidity(b) ? -1 : 1) : a < b ? -1 : 1,
    );
    expect(expected.slice(0, 2)).toEqual([BSC.WBNB, BSC.USDT]);
    expect(expected.slice(-2)).toEqual([BSC.LONELY, BSC.DUST]);
    const shown = await allPages({ orderBy: "LIQUIDITY" }, 2);
    expect(shown.map((token) => token.address)).toEqual(expected);
    expect(shown.map((token) => token.liquidityUSD)).toEqual(
      expected.map((t) => usd(expectedLiquidity("bsc", t))),
    );
  });

  test("behavior: a page by volume costs at most one store read of candles, and none again in the same indexed state", async () => {
    const log: string[] = [];
    const spied = createGraphqlServer({
      reader: spyReader(fixture.reader, log, new Set(["sumCandles", "listCandles"])) as MarketReader,
      logger: createMemoryLogger("warn").logger,
    });
    const { body } = await gql(spied, TOKENS, { first: 5 });
    expect((body.data as { tokens: TokenPage }).tokens.edges).toHaveLength(5);
    // The ranking and the page's fields share one read (another test may have made it already).
    expect(log.length).toBeLessThanOrEqual(1);
    expect(log.every((call) => call === "sumCandles")).toBe(true);
    const reads = log.length;
    const again = await gql(spied, TOKENS, { first: 5 });
    expect(again.body).toEqual(body);
    const single = await gql(spied, `{ token(symbolOrAddress: "CAKE") { volumeUSD24h tradeCount24h } }`);
    expect(single.body.errors).toBeUndefined();
    expect(log).toHaveLength(reads);
  });

  test("error: first out of range, a bad cursor and another order's cursor are BAD_REQUEST", async () => {
    const first = await page({ orderBy: "LIQUIDITY", first: 1 });
    for (const variables of [
      { first: 0 },
      { first: 101 },
      { after: "nonsense" },
      { orderBy: "VOLUME_24H", after: first.pageInfo.endCursor },
    ]) {
      const { status, body } = await gql(yoga, TOKENS, variables);
      expect(body.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe("BAD_REQUEST");
      expect(status).toBe(400);
    }
  });

  test("error: a huge first is refused by the cost limit before any read, literal or variable", async () => {
    const literal = await gql(yoga, `{ tokens(first: 1000000) { edges { node { ${FIELDS} } } } }`);
    const variable = await gql(yoga, TOKENS, { first: 1_000_000 });
    for (const { status, body } of [literal, variable]) {
      expect(body.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
      expect(status).toBe(400);
    }
  });
});
