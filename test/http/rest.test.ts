import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { formatDecimal } from "../../src/domain/formatDecimal.js";
import type { Trade } from "../../src/domain/types.js";
import { getAmountOut } from "../../src/pricing/getAmountOut.js";
import type { MarketReader } from "../../src/views/types.js";
import { createMemoryLogger } from "../graphql/support.js";
import { expectedSwapBody } from "../support/expectedSwapBody.js";
import { BSC, createFixtureReader, ETH, type Fixture } from "../support/fixtureReader.js";
import {
  assertSpecHeaders,
  assertSpecShapeDailyVolumes,
  assertSpecShapeError,
  assertSpecShapeQuote,
  assertSpecShapeSwaps,
} from "../support/specShape.js";
import { startServer, type TestServer } from "./support.js";

const E18 = 10n ** 18n;
let fixture: Fixture;
let coldFixture: Fixture;
let api: TestServer;
let cold: TestServer;

beforeAll(async () => {
  fixture = await createFixtureReader();
  api = await startServer(fixture.reader);
  // eth still backfilling: readiness and 503 cases.
  coldFixture = await createFixtureReader({ notReady: ["eth"] });
  cold = await startServer(coldFixture.reader);
});

afterAll(async () => {
  await api.close();
  await cold.close();
  await fixture.close();
  await coldFixture.close();
});

const META: Record<string, { name: string; symbol: string; decimals: string }> = {
  "bsc:": { name: "BNB", symbol: "BNB", decimals: "18" },
  [`bsc:${BSC.USDT}`]: { name: "Tether USD", symbol: "USDT", decimals: "18" },
  [`bsc:${BSC.BTCB}`]: { name: "BTCB Token", symbol: "BTCB", decimals: "18" },
  [`bsc:${BSC.CAKE}`]: { name: "PancakeSwap Token", symbol: "Cake", decimals: "18" },
  [`bsc:${BSC.DUST}`]: { name: "Dust Token", symbol: "DUST", decimals: "18" },
  "eth:": { name: "Ether", symbol: "ETH", decimals: "18" },
  [`eth:${ETH.USDC}`]: { name: "USD Coin", symbol: "USDC", decimals: "6" },
  [`eth:${ETH.WBTC}`]: { name: "Wrapped BTC", symbol: "WBTC", decimals: "8" },
};

function expectedSwap(trade: Trade) {
  return expectedSwapBody(trade, (ref) => META[`${trade.network}:${ref}`]!);
}

function inWindow(trades: Trade[]): Trade[] {
  return trades.filter((t) => t.timestamp > fixture.now - 86_400);
}

describe("GET /api/quote", () => {
  test("args: network defaults to bsc; the body is the spec's, byte for byte", async () => {
    const { status, headers, text, body } = await api.call("/api/quote?sellToken=BNB&buyToken=USDT");
    expect(status).toBe(200);
    assertSpecHeaders({ headers });
    assertSpecShapeQuote(body, { network: "bsc" });
    const price = formatDecimal(getAmountOut(E18, 10_000n * E18, 6_000_000n * E18, 25), 18);
    expect(text).toBe(
      JSON.stringify({
        result: {
          network: "bsc",
          sell_token: { name: "BNB", symbol: "BNB", decimals: "18", address: "" },
          buy_token: { name: "Tether USD", symbol: "USDT", decimals: "18", address: BSC.USDT },
          price,
        },
      }),
    );
    expect(price).toMatch(/^598\.\d+$/);
  });

  test("behavior: 8- and 6-decimal tokens on eth, routed through WETH, addresses lowercased", async () => {
    const upper = `0x${ETH.WBTC.slice(2).toUpperCase()}`;
    const { status, body } = await api.call(`/api/quote?network=eth&sellToken=${upper}&buyToken=usdc`);
    expect(status).toBe(200);
    assertSpecShapeQuote(body, { network: "eth" });
    const weth = getAmountOut(10n ** 8n, 10n * 10n ** 8n, 200n * E18, 30);
    const usdc = getAmountOut(weth, 1_000n * E18, 3_000_000n * 10n ** 6n, 30);
    expect(body).toEqual({
      result: {
        network: "eth",
        sell_token: { name: "Wrapped BTC", symbol: "WBTC", decimals: "8", address: ETH.WBTC },
        buy_token: { name: "USD Coin", symbol: "USDC", decimals: "6", address: ETH.USDC },
        price: formatDecimal(usdc, 6),
      },
    });
  });

  test('behavior: unknown query parameters are ignored; a price of nothing is "0"', async () => {
    const { status, body } = await api.call("/api/quote?sellToken=DUST&buyToken=USDT&foo=bar&SELLTOKEN=x");
    expect(status).toBe(200);
    expect((body as { result: { price: string } }).result.price).toBe("0");
  });

  test("error: missing, empty, repeated and case-mismatched parameters are 400", async () => {
    const cases = [
      "/api/quote?buyToken=USDT",
      "/api/quote?sellToken=BNB",
      "/api/quote?sellToken=&buyToken=USDT",
      "/api/quote?SellToken=BNB&buyToken=USDT",
      "/api/quote?sellToken=BNB&sellToken=ETH&buyToken=USDT",
    ];
    const answers = [];
    for (const path of cases) {
      const { status, body } = await api.call(path);
      answers.push({ status, error: assertSpecShapeError(body) });
    }
    expect(answers).toMatchInlineSnapshot(`
      [
        {
          "error": "sellToken is required: give a token symbol or a contract address.",
          "status": 400,
        },
        {
          "error": "buyToken is required: give a token symbol or a contract address.",
          "status": 400,
        },
        {
          "error": "sellToken is required: give a token symbol or a contract address.",
          "status": 400,
        },
        {
          "error": "sellToken is required: give a token symbol or a contract address.",
          "status": 400,
        },
        {
          "error": "sellToken was given more than once; give it once.",
          "status": 400,
        },
      ]
    `);
  });

  test("error: an unknown network is 400 and lists the accepted ones (values are case-sensitive)", async () => {
    for (const network of ["solana", "BSC"]) {
      const { status, body } = await api.call(`/api/quote?sellToken=BNB&buyToken=USDT&network=${network}`);
      expect(status).toBe(400);
      expect(assertSpecShapeError(body)).toContain("use one of: bsc, eth, polygon.");
    }
    // An empty parameter counts as missing: the default network.
    const empty = await api.call("/api/quote?sellToken=BNB&buyToken=USDT&network=");
    expect(empty.status).toBe(200);
    expect((empty.body as { result: { network: string } }).result.network).toBe("bsc");
    const { body } = await api.call("/api/trade_volume_usd_7d?network=solana");
    expect(body).toMatchInlineSnapshot(`
      {
        "error": "network "solana" is not supported; use one of: bsc, eth, polygon.",
      }
    `);
  });

  test("error: bad tokens are 400: unknown symbol, malformed or non-ERC-20 address, same token", async () => {
    const cases = [
      "/api/quote?sellToken=NOPE&buyToken=USDT",
      "/api/quote?sellToken=BNB&buyToken=0xdeadbeef",
      "/api/quote?sellToken=BNB&buyToken=two%20words",
      `/api/quote?sellToken=${BSC.NOT_A_TOKEN}&buyToken=USDT`,
      `/api/quote?sellToken=bnb&buyToken=${BSC.WBNB}`,
    ];
    const answers = [];
    for (const path of cases) {
      const { status, body } = await api.call(path);
      answers.push({ status, error: assertSpecShapeError(body) });
    }
    expect(answers).toMatchInlineSnapshot(`
      [
        {
          "error": "sellToken symbol "NOPE" is not supported on bsc; retry with the token's contract address.",
          "status": 400,
        },
        {
          "error": "buyToken "0xdeadbeef" is not a valid contract address: expected 0x followed by 40 hex digits.",
          "status": 400,
        },
        {
          "error": "buyToken "two words" is neither a token symbol nor a contract address.",
          "status": 400,
        },
        {
          "error": "Address 0x4444444444444444444444444444444444444444 is not an ERC-20 token contract on bsc.",
          "status": 400,
        },
        {
          "error": "sellToken and buyToken are the same token (a native coin and its wrapped token count as one); choose two different tokens.",
          "status": 400,
        },
      ]
    `);
  });

  test("error: no route is 422; not configured or not ready is 503", async () => {
    const noRoute = await api.call("/api/quote?sellToken=LONELY&buyToken=USDT");
    const polygon = await api.call("/api/quote?sellToken=POL&buyToken=USDC&network=polygon");
    const backfilling = await cold.call("/api/quote?sellToken=ETH&buyToken=USDC&network=eth");
    expect(
      [noRoute, polygon, backfilling].map(({ status, body }) => ({
        status,
        error: assertSpecShapeError(body),
      })),
    ).toMatchInlineSnapshot(`
      [
        {
          "error": "No liquidity route from LONELY to USDT on bsc in the indexed pools.",
          "status": 422,
        },
        {
          "error": "Network polygon is not configured on this server.",
          "status": 503,
        },
        {
          "error": "Network eth is still being indexed; retry in a few minutes.",
          "status": 503,
        },
      ]
    `);
    assertSpecHeaders(noRoute);
  });
});

describe("GET /api/swaps_24h", () => {
  test("args: bsc by default: the last 24 hours, ascending by block then position, spec fields", async () => {
    const { status, headers, text, body } = await api.call("/api/swaps_24h");
    expect(status).toBe(200);
    assertSpecHeaders({ headers });
    assertSpecShapeSwaps(body);
    const expected = inWindow(fixture.trades.bsc).map(expectedSwap);
    expect(expected).toHaveLength(4);
    expect(text).toBe(JSON.stringify(expected));
    // The native side (router wrapped BNB) and the spec's sample formats.
    expect(expected[0]).toMatchObject({
      sell_token: { symbol: "BNB", address: "", amount_decimal: "95.80185450" },
      trade_volume_usd: "57477.112957506",
    });
    expect(expected.at(-1)).toMatchObject({
      buy_token: { amount: "0", amount_decimal: "0.00000000" },
      trade_volume_usd: "0",
    });
  });

  test("behavior: 6 and 8 decimals and huge amounts on eth", async () => {
    const { status, body } = await api.call("/api/swaps_24h?network=eth");
    expect(status).toBe(200);
    assertSpecShapeSwaps(body);
    expect(body).toEqual(inWindow(fixture.trades.eth).map(expectedSwap));
    const [first, second] = body as ReturnType<typeof expectedSwap>[];
    expect(first?.sell_token.amount_decimal).toBe("1234.56789100");
    expect(first?.buy_token.amount_decimal).toBe("0.02057613");
    expect(second?.buy_token).toMatchObject({ address: "", amount_decimal: "987654321.09876543" });
    expect(second?.trade_volume_usd).toBe("74074073407200");
  });

  test("behavior: more swaps than one GraphQL page come back whole and in order", async () => {
    const bulk = await createFixtureReader({ bulkTrades: 2_500 });
    const server = await startServer(bulk.reader);
    try {
      const started = performance.now();
      const { status, body } = await server.call("/api/swaps_24h");
      const ms = performance.now() - started;
      expect(status).toBe(200);
      assertSpecShapeSwaps(body);
      const expected = bulk.trades.bsc.filter((t) => t.timestamp > bulk.now - 86_400);
      expect((body as { tx_hash: string }[]).map((s) => s.tx_hash)).toEqual(expected.map((t) => t.txHash));
      expect(expected.length).toBe(2_504);
      // Generous bound on a shared 2-core machine; it catches an accidental quadratic.
      expect(ms).toBeLessThan(3_000);
    } finally {
      await server.close();
      await bulk.close();
    }
  });

  test("error: a network that is not ready is 503", async () => {
    const { status, body } = await cold.call("/api/swaps_24h?network=eth");
    expect(status).toBe(503);
    assertSpecShapeError(body);
  });
});

describe("GET /api/trade_volume_usd_7d", () => {
  test("args: exactly 7 UTC days newest first, exact sums, distinct senders, empty days 0/0", async () => {
    const { status, headers, body } = await api.call("/api/trade_volume_usd_7d");
    expect(status).toBe(200);
    assertSpecHeaders({ headers });
    assertSpecShapeDailyVolumes(body, { now: fixture.now });
    const expected = Array.from({ length: 7 }, (_, i) => {
      const date = new Date((fixture.now - i * 86_400) * 1000).toISOString().slice(0, 10);
      const trades = fixture.trades.bsc.filter(
        (t) => new Date(t.timestamp * 1000).toISOString().slice(0, 10) === date,
      );
      return {
        date,
        address_count: String(new Set(trades.map((t) => t.sender)).size),
        trade_volume_usd: formatDecimal(
          trades.reduce((sum, t) => sum + t.volumeUsd, 0n),
          18,
        ),
      };
    });
    expect(body).toEqual(expected);
    expect(expected.some((day) => day.address_count === "0" && day.trade_volume_usd === "0")).toBe(true);
  });
});

describe("HTTP", () => {
  test("behavior: HEAD answers the GET's headers without a body", async () => {
    const get = await api.call("/api/trade_volume_usd_7d");
    const head = await api.call("/api/trade_volume_usd_7d", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(get.text)));
    assertSpecHeaders(head);
  });

  test("behavior: CORS preflight is answered for GET", async () => {
    const { status, headers } = await api.call("/api/quote", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-client",
      },
    });
    expect(status).toBe(204);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    expect(headers.get("access-control-allow-headers")).toBe("x-client");
  });

  test("error: unknown paths are 404, other methods 405 with Allow, long URLs 400", async () => {
    const notFound = await api.call("/api/nope");
    const slash = await api.call("/api/quote/?sellToken=BNB&buyToken=USDT");
    const post = await api.call("/api/quote?sellToken=BNB&buyToken=USDT", { method: "POST", body: "{}" });
    const long = await api.call(`/api/quote?sellToken=${"A".repeat(3_000)}&buyToken=USDT`);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(
      [notFound, slash, post, long].map(({ status, body }) => ({
        status,
        error: assertSpecShapeError(body),
      })),
    ).toMatchInlineSnapshot(`
      [
        {
          "error": "Unknown path /api/nope.",
          "status": 404,
        },
        {
          "error": "Unknown path /api/quote/.",
          "status": 404,
        },
        {
          "error": "Method POST is not allowed; use GET.",
          "status": 405,
        },
        {
          "error": "The request URL is too long: at most 2048 characters.",
          "status": 400,
        },
      ]
    `);
    assertSpecHeaders(post);
  });

  test("error: unexpected failures are 500 with a masked message, logged with the cause", async () => {
    const { reader, close } = await createFixtureReader();
    onTestFinished(close);
    const broken: MarketReader = Object.assign(Object.create(reader) as MarketReader, {
      listDailyVolumes: async () => {
        throw new Error("SQLITE_CORRUPT: database disk image is malformed (/var/lib/swapgraph.db)");
      },
    });
    const { logger, records } = createMemoryLogger("warn");
    const server = await startServer(broken, { logger });
    try {
      const { status, text, body } = await server.call("/api/trade_volume_usd_7d");
      expect(status).toBe(500);
      expect(body).toMatchInlineSnapshot(`
        {
          "error": "Internal server error.",
        }
      `);
      expect(text).not.toMatch(/SQLITE|swapgraph\.db/);
      expect(records.some((r) => r.level === 50 && JSON.stringify(r).includes("SQLITE_CORRUPT"))).toBe(true);
    } finally {
      await server.close();
    }
  });

  test("error: a malformed HTTP request gets a JSON 400 from the server itself", async () => {
    // Only a socket can carry a malformed request.
    const listening = await startServer(fixture.reader, { listen: true });
    onTestFinished(() => listening.close());
    const url = new URL(listening.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write("NONSENSE\r\n\r\n"));
      let data = "";
      socket.on("data", (chunk) => {
        data += chunk.toString();
      });
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(raw.endsWith('{"error":"Malformed HTTP request."}')).toBe(true);
  });

  test("behavior: /health is alive; /ready waits for every configured network", async () => {
    expect((await api.call("/health")).status).toBe(200);
    expect(await api.call("/ready")).toMatchObject({ status: 200, body: { status: "ready" } });
    const notReady = await cold.call("/ready");
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchInlineSnapshot(`
      {
        "error": "Not ready: indexing has not caught up on every network yet.",
      }
    `);
  });

  test("behavior: /ready stays 200 while a network is degraded (RPC down), 503 while one is halted", async () => {
    const degraded = await createFixtureReader({ degraded: ["bsc"] });
    const halted = await createFixtureReader({ halted: ["eth"] });
    const servers = [await startServer(degraded.reader), await startServer(halted.reader)];
    onTestFinished(async () => {
      for (const server of servers) await server.close();
      await degraded.close();
      await halted.close();
    });
    // Degraded with data far beyond the staleness limit: the process itself can still serve.
    degraded.reader.setStatus("bsc", { syncedAt: Date.now() - 3_600_000 });
    expect(await servers[0]!.call("/ready")).toMatchObject({ status: 200, body: { status: "ready" } });
    expect((await servers[1]!.call("/ready")).status).toBe(503);
  });

  test("behavior: /metrics counts the 24-hour trades in the store and tells freshness per network", async () => {
    const degraded = await createFixtureReader({ degraded: ["eth"] });
    const server = await startServer(degraded.reader);
    onTestFinished(async () => {
      await server.close();
      await degraded.close();
    });
    degraded.reader.setStatus("eth", { syncedAt: Date.now() - 120_000 });
    const { status, text } = await server.call("/metrics");
    expect(status).toBe(200);
    const window = (network: "bsc" | "eth") =>
      degraded.trades[network].filter((t) => t.timestamp >= degraded.now - 86_400).length;
    expect(text).toContain(`swapgraph_swaps_24h{network="bsc"} ${window("bsc")}`);
    expect(text).toContain(`swapgraph_swaps_24h{network="eth"} ${window("eth")}`);
    expect(text).toContain('swapgraph_degraded{network="bsc"} 0');
    expect(text).toContain('swapgraph_degraded{network="eth"} 1');
    expect(text).toContain('swapgraph_ready{network="eth"} 1');
    expect(text).toContain('swapgraph_halted{network="eth"} 0');
    const age = (network: string) =>
      Number(new RegExp(`swapgraph_data_age_seconds\\{network="${network}"\\} ([\\d.]+)`).exec(text)?.[1]);
    expect(age("bsc")).toBeLessThan(60);
    expect(age("eth")).toBeGreaterThanOrEqual(120);
    expect(age("eth")).toBeLessThan(180);
  });

  test("behavior: /graphql is served by the same server", async () => {
    const { status, body } = await api.call("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: '{ quote(sellToken: "BNB", buyToken: "USDT") { price } }' }),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: { quote: { price: expect.stringMatching(/^598\./) } } });
  });
});

describe("freshness", () => {
  const paths = ["/api/quote?sellToken=BNB&buyToken=USDT", "/api/swaps_24h", "/api/trade_volume_usd_7d"];

  test("behavior: the three answers tell the indexed block and the data age, readable by browsers", async () => {
    for (const path of paths) {
      const { status, headers } = await api.call(path);
      expect(status, path).toBe(200);
      expect(headers.get("x-indexed-block"), path).toBe("40000000");
      expect(Number(headers.get("x-data-age")), path).toBeLessThan(60);
      expect(headers.get("x-data-age"), path).toMatch(/^\d+$/);
      expect(headers.get("access-control-expose-headers"), path).toBe(
        "X-Indexed-Block, X-Data-Age, X-Next-Cursor, Link",
      );
    }
    const eth = await api.call("/api/swaps_24h?network=eth");
    expect(eth.headers.get("x-indexed-block")).toBe("20000000");
  });

  test("error: data older than maxStalenessSeconds is 503; degraded but fresh is 200", async () => {
    const degraded = await createFixtureReader({ degraded: ["bsc"] });
    const { logger, records } = createMemoryLogger("warn");
    const server = await startServer(degraded.reader, { logger });
    onTestFinished(async () => {
      await server.close();
      await degraded.close();
    });
    for (const path of paths) expect((await server.call(path)).status, path).toBe(200);

    // The fixture's limit is 600 s.
    degraded.reader.setStatus("bsc", { syncedAt: Date.now() - 700_000 });
    for (const path of paths) {
      const { status, body } = await server.call(path);
      expect(status, path).toBe(503);
      expect(assertSpecShapeError(body), path).toMatch(
        /^Network bsc's indexed data is 70\d seconds old, beyond its 600-second freshness limit; retry later\.$/,
      );
    }
    // Another network's freshness is its own.
    expect((await server.call("/api/swaps_24h?network=eth")).status).toBe(200);
    expect((await server.call("/ready")).status).toBe(200);
    // A state, not a failure: an outage must not write an error line per request.
    expect(records).toEqual([]);
  });
});
