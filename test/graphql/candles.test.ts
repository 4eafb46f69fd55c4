import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import { formatPoolPrice } from "../../src/domain/formatPoolPrice.js";
import type { Candle } from "../../src/domain/market.js";
import type { Address, Trade, TradeMarks } from "../../src/domain/types.js";
import { computeQueryCost } from "../../src/graphql/plugins/computeQueryCost.js";
import { loadPersistedOperations } from "../../src/graphql/plugins/loadPersistedOperations.js";
import type { CandleOutput } from "../../src/graphql/queries/listCandles.js";
import { buildSchema } from "../../src/graphql/schema/buildSchema.js";
import { startServer, type TestServer } from "../http/support.js";
import {
  createFixtureReader,
  ETH,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";
import { recomputeCandles } from "../support/recomputeCandles.js";

const E18 = 10n ** 18n;
const CANDLES = /* GraphQL */ `
  query C($network: Network, $token: String, $pool: String, $interval: CandleInterval!, $from: Timestamp, $to: Timestamp, $first: Int) {
    candles(network: $network, token: $token, pool: $pool, interval: $interval, from: $from, to: $to, first: $first) {
      start open high low close volume quoteVolume tradeCount volumeUSD
    }
  }
`;

let fixture: Fixture;
let server: TestServer;
let trades: Trade[];
/** Where the test's trades start: two minutes of trades, 9 to 15 minutes before now. */
let minute: number;

/** A candle as the schema shows it. */
type ShownCandle = CandleOutput;

/** A GraphQL answer as these tests read it. */
interface Answer {
  data: { candles: ShownCandle[] };
  errors: { message: string; extensions: { code: string } }[];
}

async function post(body: unknown): Promise<{ status: number; body: Answer }> {
  const answer = await server.call("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: answer.body as Answer };
}

const candles = (variables: Record<string, unknown>) => post({ query: CANDLES, variables });

/** An eth trade of the test at `second` seconds into the test's minutes, with its candle marks. */
function ethTrade(
  i: number,
  second: number,
  trade: Pick<Trade, "tokenIn" | "amountIn" | "tokenOut" | "amountOut" | "volumeUsd" | "pools">,
  marks: Omit<TradeMarks, "native">,
): Trade {
  const native = trade.tokenIn === "" || trade.tokenOut === "" ? ETH.WETH : undefined;
  return {
    network: "eth",
    txHash: nextTxHash(),
    blockNumber: 20_000_001n + BigInt(Math.floor(second / 12)),
    timestamp: minute + second,
    txIndex: i,
    logIndex: i * 3,
    sender: TRADERS.alice,
    tracked: trade.volumeUsd > 0n,
    ...trade,
    marks: { ...marks, native },
  };
}

beforeAll(async () => {
  fixture = await createFixtureReader();
  server = await startServer(fixture.reader);
  // Aligned to 5 minutes: all three trades share one 5-minute, hour and day bucket, 9-15 minutes ago.
  minute = Math.floor(fixture.now / 300) * 300 - 600;
  // USDC (6 decimals) is WETH_USDC's token0, WETH its token1; WBTC (8) is WBTC_WETH's token0.
  trades = [
    // 3,000 USDC for 1 WETH: WETH at 3,000 USD.
    ethTrade(
      0,
      5,
      {
        tokenIn: ETH.USDC,
        amountIn: 3_000n * 10n ** 6n,
        tokenOut: ETH.WETH,
        amountOut: E18,
        volumeUsd: 3_000n * E18,
        pools: [POOLS.WETH_USDC],
      },
      {
        priceInUsd: E18,
        priceOutUsd: 3_000n * E18,
        hops: [{ zeroForOne: true, amountIn: 3_000n * 10n ** 6n, amountOut: E18 }],
      },
    ),
    // 2 ETH (native) for 0.1 WBTC: WETH at 3,100 USD, then WBTC at 62,000 USD.
    ethTrade(
      1,
      20,
      {
        tokenIn: "",
        amountIn: 2n * E18,
        tokenOut: ETH.WBTC,
        amountOut: 10n ** 7n,
        volumeUsd: 6_200n * E18,
        pools: [POOLS.WBTC_WETH],
      },
      {
        priceInUsd: 3_100n * E18,
        priceOutUsd: 62_000n * E18,
        hops: [{ zeroForOne: false, amountIn: 2n * E18, amountOut: 10n ** 7n }],
      },
    ),
    // WBTC to native ETH through both pools' ... one pool: 0.05 WBTC for 0.9 ETH, WETH at 2,950.
    ethTrade(
      2,
      70,
      {
        tokenIn: ETH.WBTC,
        amountIn: 5n * 10n ** 6n,
        tokenOut: "",
        amountOut: 9n * 10n ** 17n,
        volumeUsd: 2_655n * E18,
        pools: [POOLS.WBTC_WETH],
      },
      {
        priceInUsd: 59_000n * E18,
        priceOutUsd: 2_950n * E18,
        hops: [{ zeroForOne: true, amountIn: 5n * 10n ** 6n, amountOut: 9n * 10n ** 17n }],
      },
    ),
  ];
  await fixture.commit("eth", trades);
});

afterAll(async () => {
  await server?.close();
  await fixture?.close();
});

/** A recomputed candle as the schema shows it, with the series' formatting. */
function shown(
  candle: Candle,
  price: (value: bigint) => string,
  volumeDecimals: number,
  quoteDecimals: number,
) {
  const optional = (value: bigint | undefined) => (value === undefined ? null : price(value));
  return {
    start: candle.start,
    open: optional(candle.open),
    high: optional(candle.high),
    low: optional(candle.low),
    close: optional(candle.close),
    volume: formatDecimal(candle.volume, volumeDecimals),
    quoteVolume: formatDecimal(candle.quoteVolume, quoteDecimals),
    tradeCount: candle.tradeCount,
    volumeUSD: candle.volumeUsd === undefined ? null : formatDecimal(candle.volumeUsd, 18),
  };
}

describe("candles over HTTP", () => {
  test("behavior: token candles are USD prices and volumes of the stored trades; the native symbol charts its wrapped token", async () => {
    const answer = await candles({ network: "eth", token: "ETH", interval: "MINUTE", from: minute });
    expect(answer.status).toBe(200);
    const expected = recomputeCandles(trades)
      .get(`token:${ETH.WETH}:60`)!
      .map((c) => shown(c, (p) => formatDecimal(p, 18), 18, 18));
    expect(answer.body).toEqual({ data: { candles: expected } });
    // Written out: the first minute opened at 3,000, closed at 3,100; the second is the 2,950 sale.
    expect(answer.body.data.candles).toEqual([
      {
        start: minute,
        open: "3000",
        high: "3100",
        low: "3000",
        close: "3100",
        volume: "3",
        quoteVolume: "9200",
        tradeCount: 2,
        volumeUSD: "9200",
      },
      {
        start: minute + 60,
        open: "2950",
        high: "2950",
        low: "2950",
        close: "2950",
        volume: "0.9",
        quoteVolume: "2655",
        tradeCount: 1,
        volumeUSD: "2655",
      },
    ]);
    const wrapped = await candles({ network: "eth", token: ETH.WETH, interval: "MINUTE", from: minute });
    expect(wrapped.body).toEqual(answer.body);
    const hour = await candles({ network: "eth", token: "WETH", interval: "HOUR", from: minute });
    expect(hour.body.data.candles).toEqual([
      expect.objectContaining({ open: "3000", high: "3100", low: "2950", close: "2950", tradeCount: 3 }),
    ]);
  });

  test("behavior: pool candles are token1 per whole token0, volumes in each token's decimals", async () => {
    const answer = await candles({
      network: "eth",
      pool: POOLS.WBTC_WETH,
      interval: "FIVE_MINUTES",
      from: minute,
    });
    const expected = recomputeCandles(trades)
      .get(`pool:${POOLS.WBTC_WETH}:300`)!
      .map((c) => shown(c, (p) => formatPoolPrice(p, 8, 18), 8, 18));
    expect(answer.body).toEqual({ data: { candles: expected } });
    // 0.1 WBTC bought for 2 WETH (20 WETH per WBTC), then 0.05 sold for 0.9 (18).
    expect(answer.body.data.candles).toEqual([
      expect.objectContaining({
        open: "20",
        high: "20",
        low: "18",
        close: "18",
        volume: "0.15",
        quoteVolume: "2.9",
        // The USD value of the two swaps through the pool.
        volumeUSD: formatDecimal(
          trades.filter((t) => t.pools.includes(POOLS.WBTC_WETH)).reduce((sum, t) => sum + t.volumeUsd, 0n),
          18,
        ),
      }),
    ]);
    // USDC (6 decimals) in WETH (18): 1 USDC = 1/3000 WETH, exact to 36 digits, then truncated.
    const usdc = await candles({
      network: "eth",
      pool: POOLS.WETH_USDC.toUpperCase().replace("0X", "0x"),
      interval: "DAY",
      from: minute,
    });
    expect(usdc.body.data.candles[0]!.open).toBe(
      formatPoolPrice((E18 * 10n ** 36n) / (3_000n * 10n ** 6n), 6, 18),
    );
    expect(usdc.body.data.candles[0]!.open).toMatch(/^0\.000(3){45}$/);
  });

  test("args: from defaults to `first` intervals before now, to is exclusive, first bounds the page", async () => {
    const byDefault = await candles({ network: "eth", token: "WETH", interval: "MINUTE" });
    expect(byDefault.body.data.candles.map((c) => c.start)).toEqual([minute, minute + 60]);
    const tooShort = await candles({ network: "eth", token: "WETH", interval: "MINUTE", first: 5 });
    expect(tooShort.body.data.candles).toEqual([]);
    const firstOnly = await candles({
      network: "eth",
      token: "WETH",
      interval: "MINUTE",
      from: minute,
      to: minute + 60,
    });
    expect(firstOnly.body.data.candles.map((c) => c.start)).toEqual([minute]);
    const one = await candles({
      network: "eth",
      token: "WETH",
      interval: "MINUTE",
      from: minute + 59,
      first: 1,
    });
    expect(one.body.data.candles.map((c) => c.start)).toEqual([minute]);
    // A token nobody traded since candles began has no candles.
    const dai = await candles({ network: "eth", token: "DAI", interval: "DAY", from: 0 });
    expect(dai.body).toEqual({ data: { candles: [] } });
  });

  test("error: bad arguments are BAD_REQUEST, a network still indexing is NOT_READY", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ network: "eth", interval: "MINUTE" }, /exactly one of token and pool/],
      [
        { network: "eth", token: "WETH", pool: POOLS.WETH_USDC, interval: "MINUTE" },
        /exactly one of token and pool/,
      ],
      [{ network: "eth", pool: "0x1234", interval: "MINUTE" }, /pool must be an address/],
      [
        { network: "eth", pool: POOLS.WETH_USDC.replace("1", "9") as Address, interval: "MINUTE" },
        /not an indexed pool/,
      ],
      [{ network: "eth", token: "NOPE", interval: "MINUTE" }, /NOPE/],
      [
        { network: "eth", token: "WETH", interval: "MINUTE", first: 1001 },
        /first must be between 1 and 1000/,
      ],
      [
        { network: "eth", token: "WETH", interval: "MINUTE", from: 200, to: 100 },
        /from must not be later than to/,
      ],
    ];
    for (const [variables, message] of cases) {
      const answer = await candles(variables);
      expect(answer.status, JSON.stringify(variables)).toBe(400);
      expect(answer.body.errors[0]!.message).toMatch(message);
      expect(answer.body.errors[0]!.extensions.code).toBe("BAD_REQUEST");
    }
    const badInterval = await candles({ network: "eth", token: "WETH", interval: "WEEK" });
    expect(badInterval.status).toBe(400);
    const notReady = await createFixtureReader({ notReady: ["eth"] });
    const other = await startServer(notReady.reader);
    try {
      const answer = await other.call("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: CANDLES,
          variables: { network: "eth", token: "WETH", interval: "DAY" },
        }),
      });
      expect(answer.status).toBe(503);
      expect((answer.body as Answer).errors[0]!.extensions.code).toBe("NOT_READY");
    } finally {
      await other.close();
      await notReady.close();
    }
  });

  test("behavior: the published Candles operation answers by its id; its cost grows with first", async () => {
    const schema = buildSchema();
    const operation = [...loadPersistedOperations(schema).values()].find((o) => o.name === "Candles")!;
    const variables = { network: "eth", token: "WETH", interval: "MINUTE", from: minute };
    const byId = await post({
      variables,
      extensions: { persistedQuery: { version: 1, sha256Hash: operation.id } },
    });
    expect(byId.status).toBe(200);
    // The published document is what it was when published (its id is its hash): no volumeUSD.
    const full = (await candles(variables)).body.data.candles;
    expect(full.length).toBeGreaterThan(0);
    expect(byId.body).toEqual({ data: { candles: full.map(({ volumeUSD: _, ...rest }) => rest) } });
    const document = parse(operation.document);
    const small = computeQueryCost(schema, document, { ...variables, first: 10 })!;
    const large = computeQueryCost(schema, document, { ...variables, first: 1000 })!;
    expect(large).toBeGreaterThan(small * 90);
  });
});
