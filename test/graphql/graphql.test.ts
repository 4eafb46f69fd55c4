import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { TradePageQuery } from "../../src/domain/market.js";
import type { NetworkName } from "../../src/domain/types.js";
import { createGraphqlServer, type GraphqlServer } from "../../src/graphql/createGraphqlServer.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import type { MarketReader } from "../../src/views/types.js";
import {
  BSC,
  createFixtureReader,
  ETH,
  type Fixture,
  nextTxHash,
  POOLS,
  TRADERS,
} from "../support/fixtureReader.js";
import { createMemoryLogger, gql } from "./support.js";

const E18 = 10n ** 18n;
const QUOTE = /* GraphQL */ `
  query Q($network: Network, $sell: String!, $buy: String!, $amount: BigInt) {
    quote(network: $network, sellToken: $sell, buyToken: $buy, sellAmount: $amount) {
      network
      sellToken { address name symbol decimals }
      buyToken { address name symbol decimals }
      sellAmount buyAmount price priceImpact blockNumber
      route { path pools { address dex token0 token1 feeBps } }
    }
  }
`;
const SWAPS = /* GraphQL */ `
  query S($network: Network, $from: Timestamp, $to: Timestamp, $token: String, $trader: String, $first: Int, $after: String, $atBlock: BigInt) {
    swaps(network: $network, from: $from, to: $to, token: $token, trader: $trader, first: $first, after: $after, atBlock: $atBlock) {
      pageInfo { hasNextPage endCursor }
      edges {
        cursor
        node {
          txHash blockNumber timestamp sender volumeUSD tracked pools
          sell { token { address symbol decimals } amount amountDecimal d8: amountDecimal(digits: 8) }
          buy { token { address symbol decimals } amount amountDecimal d8: amountDecimal(digits: 8) }
        }
      }
    }
  }
`;

let fixture: Fixture;
let yoga: GraphqlServer;

beforeAll(async () => {
  fixture = await createFixtureReader({ notReady: ["eth"] });
  yoga = createGraphqlServer({ reader: fixture.reader, logger: createMemoryLogger("warn").logger });
});

afterAll(async () => {
  await fixture.close();
});

function errorOf(response: Awaited<ReturnType<typeof gql>>) {
  const error = response.body.errors?.[0];
  return { status: response.status, message: error?.message, code: error?.extensions?.code };
}

describe("quote", () => {
  test("args: network defaults to bsc and sellAmount to one whole sell token", async () => {
    const { status, body } = await gql(yoga, QUOTE, { sell: "WBNB", buy: "USDT" });
    expect(status).toBe(200);
    const out = getAmountOut(E18, 10_000n * E18, 6_000_000n * E18, 25);
    expect(body.data?.quote).toEqual({
      network: "bsc",
      sellToken: { address: BSC.WBNB, name: "Wrapped BNB", symbol: "WBNB", decimals: 18 },
      buyToken: { address: BSC.USDT, name: "Tether USD", symbol: "USDT", decimals: 18 },
      sellAmount: E18.toString(),
      buyAmount: out.toString(),
      price: formatDecimal(out, 18),
      priceImpact: expect.stringMatching(/^0\.00\d+$/),
      blockNumber: "40000000",
      route: {
        path: [BSC.WBNB, BSC.USDT],
        // Pairs sort their tokens by address: USDT (0x55...) is token0.
        pools: [
          { address: POOLS.WBNB_USDT, dex: "PancakeSwap V2", token0: BSC.USDT, token1: BSC.WBNB, feeBps: 25 },
        ],
      },
    });
  });

  test("behavior: symbols match case-insensitively and the native symbol means the native coin", async () => {
    const { body } = await gql(yoga, QUOTE, { sell: "bnb", buy: "usdt" });
    const quote = body.data?.quote as Record<
      string,
      { address?: string; symbol?: string } | string[] | string
    >;
    expect(quote.sellToken).toEqual({ address: "", name: "BNB", symbol: "BNB", decimals: 18 });
    // Native routes as wrapped, 1:1.
    expect((quote.route as unknown as { path: string[] }).path).toEqual([BSC.WBNB, BSC.USDT]);
    const out = getAmountOut(E18, 10_000n * E18, 6_000_000n * E18, 25);
    expect(quote.price).toBe(formatDecimal(out, 18));
  });

  test("behavior: an address in any case resolves, and an off-list ERC-20 is read from the chain", async () => {
    const upper = `0x${BSC.CAKE.slice(2).toUpperCase()}`;
    const { body } = await gql(yoga, QUOTE, { sell: upper, buy: BSC.OFFLIST });
    // OFF has no pool: the tokens resolved (no 400) and the answer is "no route".
    expect(body.errors?.[0]?.extensions?.code).toBe("UNPROCESSABLE");
    const token = await gql(
      yoga,
      `{ token(symbolOrAddress: "${BSC.OFFLIST.toUpperCase().replace("0X", "0x")}") { address name symbol decimals } }`,
    );
    expect(token.body.data?.token).toEqual({
      address: BSC.OFFLIST,
      name: "Off List Token",
      symbol: "OFF",
      decimals: 9,
    });
  });

  test("behavior: the best route may hop through base tokens", async () => {
    const { body } = await gql(yoga, QUOTE, { sell: "Cake", buy: "BTCB" });
    const quote = body.data?.quote as { route: { path: string[] }; buyAmount: string; price: string };
    expect(quote.route.path).toEqual([BSC.CAKE, BSC.WBNB, BSC.BTCB]);
    const viaWbnb = getAmountOut(
      getAmountOut(E18, 1_000_000n * E18, 3_333n * E18, 25),
      10_000n * E18,
      100n * E18,
      25,
    );
    expect(quote.buyAmount).toBe(viaWbnb.toString());
    expect(quote.price).toBe(formatDecimal(viaWbnb, 18));
  });

  test("behavior: price is per one whole sell token even when sellAmount differs", async () => {
    const { body } = await gql(yoga, QUOTE, { sell: "WBNB", buy: "USDT", amount: (100n * E18).toString() });
    const quote = body.data?.quote as { sellAmount: string; buyAmount: string; price: string };
    expect(quote.sellAmount).toBe((100n * E18).toString());
    expect(quote.buyAmount).toBe(getAmountOut(100n * E18, 10_000n * E18, 6_000_000n * E18, 25).toString());
    expect(quote.price).toBe(formatDecimal(getAmountOut(E18, 10_000n * E18, 6_000_000n * E18, 25), 18));
  });

  test('behavior: a pool that gives nothing for one whole token prices it at "0"', async () => {
    const { body } = await gql(yoga, QUOTE, { sell: "DUST", buy: "USDT" });
    const quote = body.data?.quote as { price: string; buyAmount: string; route: { path: string[] } };
    expect(quote.price).toBe("0");
    expect(quote.buyAmount).toBe("0");
    expect(quote.route.path).toEqual([BSC.DUST, BSC.USDT]);
  });

  test("error: an unknown symbol asks for the contract address", async () => {
    expect(errorOf(await gql(yoga, QUOTE, { sell: "NOPE", buy: "USDT" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "sellToken symbol "NOPE" is not supported on bsc; retry with the token's contract address.",
        "status": 400,
      }
    `);
  });

  test("error: a malformed address, an empty token and a non-ERC-20 address are 400", async () => {
    expect(errorOf(await gql(yoga, QUOTE, { sell: "WBNB", buy: "0x1234" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "buyToken "0x1234" is not a valid contract address: expected 0x followed by 40 hex digits.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, QUOTE, { sell: "", buy: "USDT" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "sellToken is required: give a token symbol or a contract address.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, QUOTE, { sell: BSC.NOT_A_TOKEN, buy: "USDT" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "Address 0x4444444444444444444444444444444444444444 is not an ERC-20 token contract on bsc.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, QUOTE, { sell: "WBNB", buy: "USDT", amount: "0" })).code).toBe(
      "BAD_REQUEST",
    );
    expect(errorOf(await gql(yoga, QUOTE, { sell: "WBNB", buy: "USDT", amount: "1.5" })).status).toBe(400);
  });

  test("error: the same token on both sides is 400, native and wrapped included", async () => {
    expect(errorOf(await gql(yoga, QUOTE, { sell: "BNB", buy: BSC.WBNB }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "sellToken and buyToken are the same token (a native coin and its wrapped token count as one); choose two different tokens.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, QUOTE, { sell: "usdt", buy: "USDT" })).status).toBe(400);
  });

  test("error: no route is 422", async () => {
    expect(errorOf(await gql(yoga, QUOTE, { sell: "LONELY", buy: "USDT" }))).toMatchInlineSnapshot(`
      {
        "code": "UNPROCESSABLE",
        "message": "No liquidity route from LONELY to USDT on bsc in the indexed pools.",
        "status": 422,
      }
    `);
  });

  test("error: a network that is not configured or still indexing is 503", async () => {
    expect(
      errorOf(await gql(yoga, QUOTE, { network: "polygon", sell: "POL", buy: "USDC" })),
    ).toMatchInlineSnapshot(`
      {
        "code": "NOT_READY",
        "message": "Network polygon is not configured on this server.",
        "status": 503,
      }
    `);
    expect(
      errorOf(await gql(yoga, QUOTE, { network: "eth", sell: "ETH", buy: "USDC" })),
    ).toMatchInlineSnapshot(`
      {
        "code": "NOT_READY",
        "message": "Network eth is still being indexed; retry in a few minutes.",
        "status": 503,
      }
    `);
  });

  test("error: an unknown network is rejected by the enum", async () => {
    const response = await gql(yoga, QUOTE, { network: "solana", sell: "BNB", buy: "USDT" });
    expect(response.body.errors?.[0]?.message).toContain('Value "solana" does not exist in "Network" enum');
  });
});

describe("swaps", () => {
  test("args: the default window is the last 24 hours, ascending by block then position", async () => {
    const { body } = await gql(yoga, SWAPS);
    const edges = (body.data!.swaps as { edges: { node: { txHash: string; timestamp: number } }[] }).edges;
    const expected = fixture.trades.bsc.filter((t) => t.timestamp >= fixture.now - 86_400);
    expect(edges.map((e) => e.node.txHash)).toEqual(expected.map((t) => t.txHash));
    expect(expected.length).toBe(4);
    // The two swaps of one block come by position, whatever order they were stored in.
    const sameBlock = fixture.trades.bsc.filter((t) => t.sender === TRADERS.carol && t.tokenOut === "");
    expect(sameBlock).toHaveLength(1);
  });

  test("behavior: native sides, exact and 8-digit amounts, USD volume as plain decimals", async () => {
    const { body } = await gql(yoga, SWAPS, { trader: TRADERS.carol.toUpperCase().replace("0X", "0x") });
    const [edge] = (body.data!.swaps as { edges: { node: Record<string, unknown> }[] }).edges;
    expect(edge?.node).toMatchObject({
      sender: TRADERS.carol,
      sell: {
        token: { address: BSC.USDT, symbol: "USDT", decimals: 18 },
        amount: "2737788670269999999999",
        amountDecimal: "2737.788670269999999999",
        d8: "2737.78867026",
      },
      buy: {
        token: { address: "", symbol: "BNB", decimals: 18 },
        amount: "4560000000000000000",
        amountDecimal: "4.56",
        d8: "4.56000000",
      },
      volumeUSD: "2737.788670269999999999",
      tracked: true,
      pools: [POOLS.WBNB_USDT],
    });
  });

  test("behavior: an untracked swap is worth 0", async () => {
    const { body } = await gql(yoga, SWAPS, { token: "DUST" });
    const nodes = (body.data!.swaps as { edges: { node: Record<string, unknown> }[] }).edges.map(
      (e) => e.node,
    );
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatchObject({
      volumeUSD: "0",
      tracked: false,
      buy: { amount: "0", amountDecimal: "0", d8: "0.00000000" },
    });
  });

  test("behavior: cursors page through the window without gaps or repeats", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { body } = await gql(yoga, SWAPS, { from: 0, first: 3, after });
      const swaps = body.data?.swaps as {
        edges: { cursor: string; node: { txHash: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
      seen.push(...swaps.edges.map((e) => e.node.txHash));
      expect(swaps.pageInfo.endCursor).toBe(swaps.edges.at(-1)?.cursor ?? null);
      if (!swaps.pageInfo.hasNextPage) break;
      after = swaps.pageInfo.endCursor;
    }
    expect(seen).toEqual(fixture.trades.bsc.map((t) => t.txHash));
  });

  test("behavior: filters by token (the native coin as such) and window bounds", async () => {
    const native = await gql(yoga, SWAPS, { from: 0, token: "BNB" });
    const nativeHashes = (native.body.data!.swaps as { edges: { node: { txHash: string } }[] }).edges.map(
      (e) => e.node.txHash,
    );
    expect(nativeHashes).toEqual(
      fixture.trades.bsc.filter((t) => t.tokenIn === "" || t.tokenOut === "").map((t) => t.txHash),
    );
    const iso = new Date((fixture.now - 3 * 86_400) * 1000).toISOString();
    const windowed = await gql(yoga, SWAPS, { from: iso, to: fixture.now - 86_400 });
    const hashes = (windowed.body.data!.swaps as { edges: { node: { txHash: string } }[] }).edges.map(
      (e) => e.node.txHash,
    );
    expect(hashes).toEqual(
      fixture.trades.bsc
        .filter((t) => t.timestamp >= fixture.now - 3 * 86_400 && t.timestamp < fixture.now - 86_400)
        .map((t) => t.txHash),
    );
  });

  test("error: bad page size, cursor, trader, window and timestamp are 400", async () => {
    expect(errorOf(await gql(yoga, SWAPS, { first: 1001 }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "first must be between 1 and 1000.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, SWAPS, { after: "bm90LWEtY3Vyc29y" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "after is not a valid cursor: pass an endCursor or edge cursor from swaps.",
        "status": 400,
      }
    `);
    expect(errorOf(await gql(yoga, SWAPS, { trader: "bob" })).message).toBe(
      "trader must be an address: 0x followed by 40 hex digits.",
    );
    expect(errorOf(await gql(yoga, SWAPS, { from: 200, to: 100 })).message).toBe(
      "from must not be later than to.",
    );
    expect(errorOf(await gql(yoga, SWAPS, { from: "yesterday" }))).toMatchInlineSnapshot(`
      {
        "code": "BAD_REQUEST",
        "message": "Variable "$from" got invalid value "yesterday"; Expected type "Timestamp". Timestamp must be unix seconds or an ISO-8601 date-time, e.g. 1700000000 or "2023-11-14T22:13:20Z".",
        "status": 400,
      }
    `);
  });

  test("behavior: a page is one store read of first + 1 rows with the cursor and filters pushed down", async () => {
    const queries: unknown[] = [];
    const spy: MarketReader = Object.assign(Object.create(fixture.reader) as MarketReader, {
      listTrades: (network: NetworkName, query: TradePageQuery) => {
        queries.push({ network, ...query });
        return fixture.reader.listTrades(network, query);
      },
    });
    const server = createGraphqlServer({ reader: spy, logger: createMemoryLogger("silent").logger });
    const first = await gql(server, SWAPS, { from: 0, first: 2, token: "USDT", trader: TRADERS.bob });
    const page = first.body.data?.swaps as { pageInfo: { endCursor: string } };
    await gql(server, SWAPS, { from: 0, first: 2, after: page.pageInfo.endCursor, atBlock: "39999999" });
    const lastOfPage = fixture.trades.bsc.filter(
      (t) => t.sender === TRADERS.bob && (t.tokenIn === BSC.USDT || t.tokenOut === BSC.USDT),
    )[1]!;
    expect(queries).toEqual([
      { network: "bsc", fromTimestamp: 0, limit: 3, token: BSC.USDT, sender: TRADERS.bob },
      {
        network: "bsc",
        fromTimestamp: lastOfPage.timestamp,
        limit: 3,
        after: {
          blockNumber: lastOfPage.blockNumber,
          txIndex: lastOfPage.txIndex,
          logIndex: lastOfPage.logIndex,
        },
        maxBlock: 39_999_999n,
      },
    ]);
  });

  test("behavior: atBlock pins a multi-page read to one indexed state", async () => {
    const local = await createFixtureReader();
    onTestFinished(local.close);
    const server = createGraphqlServer({ reader: local.reader, logger: createMemoryLogger("silent").logger });
    const atBlock = local.head.bsc.toString();
    const page1 = await gql(server, SWAPS, { first: 2, atBlock });
    const { endCursor } = (page1.body.data!.swaps as { pageInfo: { endCursor: string } }).pageInfo;
    const pinned = local.trades.bsc.filter((t) => t.timestamp >= local.now - 86_400).map((t) => t.txHash);
    // Indexed between the pages: one block above the pinned one.
    const late = { ...local.trades.bsc.at(-1)!, txHash: nextTxHash(), blockNumber: local.head.bsc + 1n };
    await local.commit("bsc", [late]);
    const rest = async (vars: Record<string, unknown>) =>
      (
        (await gql(server, SWAPS, { first: 100, after: endCursor, ...vars })).body.data!.swaps as {
          edges: { node: { txHash: string } }[];
        }
      ).edges.map((e) => e.node.txHash);
    const page1Hashes = (page1.body.data!.swaps as { edges: { node: { txHash: string } }[] }).edges.map(
      (e) => e.node.txHash,
    );
    expect([...page1Hashes, ...(await rest({ atBlock }))]).toEqual(pinned);
    expect(await rest({})).toEqual([...pinned.slice(2), late.txHash]);
    expect(errorOf(await gql(server, SWAPS, { atBlock: "-1" })).message).toBe(
      "atBlock must not be negative.",
    );
  });

  test("behavior: token metadata of many swaps is loaded in ONE batch per request", async () => {
    const bulk = await createFixtureReader({ bulkTrades: 500 });
    try {
      const { logger, records } = createMemoryLogger("debug");
      const server = createGraphqlServer({ reader: bulk.reader, logger });
      const { body } = await gql(server, SWAPS, { first: 1000 });
      const edges = (body.data!.swaps as { edges: unknown[] }).edges;
      expect(edges.length).toBe(504);
      const batches = records.filter((r) => r.msg === "token metadata batch");
      expect(batches).toHaveLength(1);
      // USDT, CAKE, native, BTCB, DUST: each token once.
      expect(batches[0]).toMatchObject({ network: "bsc", size: 5 });
    } finally {
      await bulk.close();
    }
  });
});

describe("dailyVolumes, token, status", () => {
  test("args: 7 UTC days by default, newest first, exact sums and distinct senders", async () => {
    const { body } = await gql(
      yoga,
      "{ dailyVolumes { date addressCount volumeUSD tradeCount untrackedCount } }",
    );
    const days = body.data?.dailyVolumes as {
      date: string;
      addressCount: number;
      volumeUSD: string;
      tradeCount: number;
      untrackedCount: number;
    }[];
    expect(days).toHaveLength(7);
    for (const [i, day] of days.entries()) {
      const date = new Date((fixture.now - i * 86_400) * 1000).toISOString().slice(0, 10);
      const trades = fixture.trades.bsc.filter(
        (t) => new Date(t.timestamp * 1000).toISOString().slice(0, 10) === date,
      );
      expect(day).toEqual({
        date,
        addressCount: new Set(trades.map((t) => t.sender)).size,
        volumeUSD: formatDecimal(
          trades.reduce((sum, t) => sum + t.volumeUsd, 0n),
          18,
        ),
        tradeCount: trades.length,
        untrackedCount: trades.filter((t) => !t.tracked).length,
      });
    }
  });

  test("error: days outside 1..31 is 400", async () => {
    expect(errorOf(await gql(yoga, "{ dailyVolumes(days: 32) { date } }")).message).toBe(
      "days must be between 1 and 31.",
    );
  });

  test("behavior: token finds symbols, aliases and addresses; an unknown symbol is null", async () => {
    const { body } = await gql(
      yoga,
      `{
      a: token(symbolOrAddress: "cake") { address symbol }
      b: token(symbolOrAddress: "BNB") { address symbol }
      c: token(symbolOrAddress: "NOPE") { address }
      d: token(network: eth, symbolOrAddress: "${ETH.USDC}") { symbol decimals }
    }`,
    );
    expect(body.data).toEqual({
      a: { address: BSC.CAKE, symbol: "Cake" },
      b: { address: "", symbol: "BNB" },
      c: null,
      d: { symbol: "USDC", decimals: 6 },
    });
  });

  test("behavior: status lists every configured network", async () => {
    const { body } = await gql(
      yoga,
      "{ status { network ready indexedBlock headBlock lag degraded halted serving error } }",
    );
    expect(body.data?.status).toEqual([
      {
        network: "bsc",
        ready: true,
        indexedBlock: "40000000",
        headBlock: "40000000",
        lag: "0",
        degraded: false,
        halted: false,
        serving: true,
        error: null,
      },
      {
        network: "eth",
        ready: false,
        indexedBlock: "19995000",
        headBlock: "20000000",
        lag: "5000",
        degraded: false,
        halted: false,
        serving: false,
        error: null,
      },
    ]);
  });

  test("args: networkStatus defaults to bsc, tells its freshness, and is null where not indexed", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { body } = await gql(
      yoga,
      `{
        bsc: networkStatus { network indexedBlock headCheckedAt syncedAt dataAgeSeconds maxStalenessSeconds serving }
        eth: networkStatus(network: eth) { ready syncedAt dataAgeSeconds serving }
        polygon: networkStatus(network: polygon) { network }
      }`,
    );
    const bsc = body.data?.bsc as Record<string, unknown>;
    expect(bsc).toMatchObject({
      network: "bsc",
      indexedBlock: "40000000",
      maxStalenessSeconds: 600,
      serving: true,
    });
    // The fixture synced just before this test file started.
    expect(bsc.syncedAt).toBeGreaterThanOrEqual(before - 60);
    expect(bsc.syncedAt).toBeLessThanOrEqual(before);
    expect(bsc.headCheckedAt).toBe(bsc.syncedAt);
    expect(bsc.dataAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(bsc.dataAgeSeconds).toBeLessThanOrEqual(60);
    expect(body.data?.eth).toEqual({ ready: false, syncedAt: null, dataAgeSeconds: null, serving: false });
    expect(body.data?.polygon).toBeNull();
  });

  test("behavior: a degraded network keeps answering while fresh; beyond maxStalenessSeconds it is 503", async () => {
    const { reader, close } = await createFixtureReader({ degraded: ["bsc"] });
    onTestFinished(close);
    const server = createGraphqlServer({ reader, logger: createMemoryLogger("silent").logger });
    const probe = `{
      networkStatus { degraded halted serving dataAgeSeconds error }
      swaps(first: 1) { edges { node { txHash } } }
    }`;
    const fresh = await gql(server, probe);
    expect(fresh.body.errors).toBeUndefined();
    expect(fresh.body.data?.networkStatus).toMatchObject({
      degraded: true,
      halted: false,
      serving: true,
      error: "eth_getLogs failed at [url]",
    });
    expect((await gql(server, QUOTE, { sell: "BNB", buy: "USDT" })).body.errors).toBeUndefined();

    // The limit is 600 s: 601 s without a sync is over it, for every market query.
    reader.setStatus("bsc", { syncedAt: Date.now() - 601_000 });
    const stale = await gql(server, `{ networkStatus { serving dataAgeSeconds } }`);
    expect(stale.body.data?.networkStatus).toMatchObject({ serving: false });
    expect((stale.body.data!.networkStatus as { dataAgeSeconds: number }).dataAgeSeconds).toBeGreaterThan(
      600,
    );
    const answers = [
      errorOf(await gql(server, QUOTE, { sell: "BNB", buy: "USDT" })),
      errorOf(await gql(server, SWAPS)),
      errorOf(await gql(server, "{ dailyVolumes { date } }")),
    ];
    expect(answers.map((a) => [a.status, a.code])).toEqual([
      [503, "NOT_READY"],
      [503, "NOT_READY"],
      [503, "NOT_READY"],
    ]);
    expect(answers[0]!.message).toMatch(
      /^Network bsc's indexed data is 60\d seconds old, beyond its 600-second freshness limit; retry later\.$/,
    );
    expect(answers[0]!.message).not.toContain("rpc.example");
  });
});

describe("server", () => {
  test("error: unexpected errors are masked (no internals) and logged", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const broken: MarketReader = Object.assign(Object.create(reader) as MarketReader, {
      listTrades: async () => {
        throw new Error('SQLITE_ERROR: no such table "trades" at /srv/swapgraph/src/store.ts:42');
      },
    });
    const { logger, records } = createMemoryLogger("warn");
    const server = createGraphqlServer({ reader: broken, logger });
    const response = await gql(server, SWAPS);
    expect(errorOf(response)).toMatchInlineSnapshot(`
      {
        "code": "INTERNAL",
        "message": "Unexpected error.",
        "status": 500,
      }
    `);
    expect(JSON.stringify(response.body)).not.toMatch(/SQLITE|store\.ts|stack/);
    expect(records.some((r) => r.level === 50 && JSON.stringify(r).includes("SQLITE_ERROR"))).toBe(true);
  });

  test("error: a halted network is 503 without the internal reason", async () => {
    const { reader, close } = await createFixtureReader({ halted: ["bsc"] });
    onTestFinished(close);
    const server = createGraphqlServer({ reader, logger: createMemoryLogger("silent").logger });
    const response = await gql(server, QUOTE, { sell: "BNB", buy: "USDT" });
    expect(errorOf(response)).toMatchInlineSnapshot(`
      {
        "code": "NOT_READY",
        "message": "Network bsc is temporarily unavailable; retry later.",
        "status": 503,
      }
    `);
    expect(JSON.stringify(response.body)).not.toContain("rpc.example");
    const status = await gql(server, "{ status { network error } }");
    expect(status.body.data?.status).toEqual([
      { network: "bsc", error: "reorg deeper than 15 blocks at [url]" },
      { network: "eth", error: null },
    ]);
  });

  test("error: aliases, tokens and cost are limited; field suggestions are hidden", async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: status { network }`).join(" ");
    expect(errorOf(await gql(yoga, `{ ${aliases} }`)).message).toMatchInlineSnapshot(
      `"Syntax Error: Aliases limit of 15 exceeded, found 16."`,
    );
    const tokens = Array.from({ length: 2_100 }, () => "network").join(" ");
    expect(errorOf(await gql(yoga, `{ status { ${tokens} } }`)).message).toMatch(/token limit/i);
    const page = (alias: string) =>
      `${alias}: swaps(first: 1000) { edges { cursor node { txHash blockNumber timestamp sender volumeUSD tracked pools sell { token { address name symbol decimals } amount amountDecimal } buy { token { address name symbol decimals } amount amountDecimal } } } pageInfo { hasNextPage endCursor } }`;
    // One full page is a legitimate query; two are over the cost limit.
    expect((await gql(yoga, `{ ${page("a")} }`)).body.errors).toBeUndefined();
    expect(errorOf(await gql(yoga, `{ ${page("a")} ${page("b")} }`))).toMatchObject({
      status: 400,
      code: "COST_LIMIT",
      message: expect.stringMatching(/^Query cost \d+ exceeds the limit of 250000/),
    });
    const typo = await gql(yoga, "{ quot }");
    expect(typo.body.errors?.[0]?.message).toBe(
      'Cannot query field "quot" on type "Query". [Suggestion hidden]',
    );
  });

  test("behavior: GraphiQL is served at /graphql to browsers", async () => {
    const response = await yoga.fetch("http://localhost/graphql", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GraphiQL");
  });
});
