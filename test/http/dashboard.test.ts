import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import type { DevnetChainInfo } from "@swapgraph/devnet/startDevnetChain.js";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildDashboard } from "../../scripts/buildDashboard.mjs";
import { createIndexing, type Indexing } from "../../src/createIndexing.js";
import { NATIVE } from "../../src/domain/types.js";
import { createSqliteStore } from "../../src/store/sqlite/createSqliteStore.js";
import type { Store } from "../../src/store/types.js";
import type { Candle, DailyVolume, FeedSwap, PoolInfo } from "../../web/src/api.js";
import { formatDecimal, formatPercent, formatUsd, fromUnits } from "../../web/src/format.js";
import { chromiumAvailable, launchBrowser, type PageVisit, type TestBrowser } from "../support/browser.js";
import { chainHead as headOf, revert, sendSwap, snapshot, startTestDevnet } from "../support/devnet.js";
import { waitUntilIndexed } from "../support/waitUntilIndexed.js";
import { createTestServer, rawRequest } from "./support.js";

// The real path: anvil -> indexer (SQLite) -> the HTTP server -> the dashboard Vite built from
// web/, in headless Chromium. The server is pointed at the test's own build (dashboardDir).
const silent = { info() {}, warn() {}, error() {} };
const quiet = pino({ level: "silent" });

type Volume = DailyVolume;
type Pool = PoolInfo;
/** What the page keeps in window.__dashboard (web/src/main.ts). */
interface Dashboard {
  network: string;
  pools: Pool[];
  volumes: Volume[];
  candles: { token: string; interval: string; rows: Candle[] };
  feed: FeedSwap[];
  feedOpen: boolean;
  plots: { volume: (number | null)[][]; traders: (number | null)[][]; candles: (number | null)[][] };
  ready: boolean;
  error: string | null;
}

let devnet: Devnet;
let chain: DevnetChainInfo;
let store: Store;
let indexing: Indexing;
let server: Server;
let base: string;
let browser: TestBrowser;
let visit: PageVisit;
const dashboardDir = mkdtempSync(join(tmpdir(), "swapgraph-dashboard-"));

async function listen(dir = dashboardDir): Promise<{ server: Server; base: string }> {
  const { server: created } = await createTestServer(indexing.views, { logger: quiet, dashboardDir: dir });
  await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
  return { server: created, base: `http://127.0.0.1:${(created.address() as AddressInfo).port}` };
}

async function close(target: Server): Promise<void> {
  await new Promise<void>((resolve) => {
    target.close(() => resolve());
    target.closeAllConnections();
  });
}

async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as { data: T; errors?: unknown[] };
  expect(answer.errors).toBeUndefined();
  return answer.data;
}

const chainHead = () => headOf(chain.rpcUrl);

function dashboard(): Promise<Dashboard> {
  return visit.page.evaluate(() => (window as unknown as { __dashboard: Dashboard }).__dashboard);
}

beforeAll(async () => {
  // The build and the chain at once: two cores, two different kinds of work.
  const [, started] = await Promise.all([
    buildDashboard({ outDir: dashboardDir, quiet: true }),
    startTestDevnet({ seed: 23 }),
  ]);
  devnet = started;
  chain = devnet.chains[0]!;
  store = createSqliteStore({ path: ":memory:" });
  await store.migrate();
  indexing = createIndexing({
    networks: [{ ...devnet.networks[0]!, pollIntervalMs: 100 }],
    store,
    log: silent,
    role: "all",
  });
  ({ server, base } = await listen());
  indexing.start();
  await waitUntilIndexed(indexing.views, "bsc", {
    to: await chainHead(),
    what: "the indexer at the chain head",
  });
  if (chromiumAvailable) {
    browser = await launchBrowser();
    // The feed holds a stream open: the page is never network-idle. It says when it is ready.
    visit = await browser.visit(`${base}/`, { waitUntil: "load" });
    await visit.page.waitForFunction(
      () => {
        const state = (window as unknown as { __dashboard?: Dashboard }).__dashboard;
        return state?.ready === true && state.feedOpen;
      },
      undefined,
      { timeout: 20_000 },
    );
  }
}, 180_000);

afterAll(async () => {
  await visit?.page.close();
  await browser?.close();
  if (server !== undefined) await close(server);
  await indexing?.stop();
  await store?.close();
  await devnet?.stop();
  rmSync(dashboardDir, { recursive: true, force: true });
});

describe.skipIf(!chromiumAvailable)("the dashboard at /", () => {
  test("behavior: it loads from this server alone, with no failed request and no console error or warning", async () => {
    const state = await dashboard();
    expect(state.network).toBe("bsc");
    expect(state.error).toBeNull();
    expect(visit.requests[0]).toBe(`${base}/`);
    expect(visit.requests.some((url) => /\/assets\/index-[\w-]+\.js$/.test(url))).toBe(true);
    expect(visit.requests.some((url) => /\/assets\/index-[\w-]+\.css$/.test(url))).toBe(true);
    expect(visit.requests.some((url) => url.startsWith(`${base}/graphql?query=`))).toBe(true);
    expect(visit.external).toEqual([]);
    expect(visit.failed).toEqual([]);
    expect(visit.errors).toEqual([]);
    expect(visit.warnings).toEqual([]);
    expect(await visit.page.locator("#feed-state").textContent()).toBe("live");
    // The links the landing page had, in the header.
    const hrefs = await visit.page
      .locator("nav a")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs).toEqual(["/graphql", "/docs", "/openapi.json", "/health", "/ready", "/metrics"]);
  });

  test("behavior: the volume and trader bars hold exactly what dailyVolumes and /api/trade_volume_usd_7d answer", async () => {
    const { dailyVolumes } = await gql<{ dailyVolumes: Volume[] }>(
      "{ dailyVolumes(network: bsc, days: 7) { date volumeUSD addressCount tradeCount } }",
    );
    expect(dailyVolumes).toHaveLength(7);
    expect(dailyVolumes.some((day) => day.tradeCount > 0)).toBe(true);
    const rest = (await (await fetch(`${base}/api/trade_volume_usd_7d`)).json()) as {
      date: string;
      address_count: string;
      trade_volume_usd: string;
    }[];
    const state = await dashboard();
    expect(state.volumes).toEqual(dailyVolumes);
    expect(
      state.volumes.map((day) => ({
        date: day.date,
        address_count: String(day.addressCount),
        trade_volume_usd: day.volumeUSD,
      })),
    ).toEqual(rest);
    // The charts drew those numbers, oldest day first.
    const oldestFirst = [...dailyVolumes].reverse();
    expect(state.plots.volume[0]).toEqual(
      oldestFirst.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    );
    expect(state.plots.volume[1]).toEqual(oldestFirst.map((day) => Number(day.volumeUSD)));
    expect(state.plots.traders[1]).toEqual(oldestFirst.map((day) => day.addressCount));
  });

  test("behavior: the candle chart holds exactly what candles answers for the chosen token and interval", async () => {
    const candlesOf = (token: string, interval: string) =>
      gql<{ candles: Candle[] }>(
        `query($token: String!, $interval: CandleInterval!) {
          candles(network: bsc, token: $token, interval: $interval, first: 168) {
            start open high low close volume quoteVolume tradeCount } }`,
        { token, interval },
      ).then((data) => data.candles);
    const { tokens } = await gql<{
      tokens: { edges: { node: { address: string; priceUSD: string | null } }[] };
    }>("{ tokens(network: bsc, first: 20) { edges { node { address priceUSD } } } }");
    const priced = tokens.edges.map((edge) => edge.node).filter((token) => token.priceUSD !== null);
    expect(priced.length).toBeGreaterThan(1);

    let state = await dashboard();
    // The picker opens on the most traded priced token, hourly.
    expect(state.candles.token).toBe(priced[0]!.address);
    expect(state.candles.interval).toBe("HOUR");
    const hourly = await candlesOf(state.candles.token, "HOUR");
    expect(hourly.length).toBeGreaterThan(0);
    expect(state.candles.rows).toEqual(hourly);
    expect(state.plots.candles[0]).toEqual(hourly.map((candle) => candle.start));
    expect(state.plots.candles[4]).toEqual(
      hourly.map((candle) => (candle.close === null ? null : Number(candle.close))),
    );

    // Another token, daily: what a person picks is what is drawn.
    const other = priced[1]!.address;
    await visit.page.selectOption("#token", other);
    await visit.page.selectOption("#interval", "DAY");
    await expect
      .poll(async () => {
        const { candles } = await dashboard();
        return `${candles.token} ${candles.interval}`;
      })
      .toBe(`${other} DAY`);
    state = await dashboard();
    const daily = await candlesOf(other, "DAY");
    expect(state.candles.rows).toEqual(daily);
    expect(state.plots.candles[2]).toEqual(
      daily.map((candle) => (candle.high === null ? null : Number(candle.high))),
    );
    expect(await visit.page.locator("#candle-note").textContent()).toContain(`${daily.length} candles`);
  });

  test("behavior: the pools table shows the most liquid pools as the pools query answers them", async () => {
    const { pools } = await gql<{ pools: { edges: { node: Pool }[] } }>(
      `{ pools(network: bsc, orderBy: LIQUIDITY, first: 10) { edges { node {
          address dex feeBps liquidityUSD volumeUSD24h tradeCount24h
          reserve0 { token { symbol } } reserve1 { token { symbol } } } } } }`,
    );
    const expected = pools.edges.map((edge) => edge.node);
    expect(expected).toHaveLength(10);
    const state = await dashboard();
    expect(state.pools).toEqual(expected);
    const rows = visit.page.locator("#pools tbody tr");
    expect(
      await rows.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.address)),
    ).toEqual(expected.map((pool) => pool.address));
    // What a person reads: the pair, the DEX and the liquidity in dollars and cents (truncated).
    const first = await rows.first().locator("td").allTextContents();
    const top = expected[0]!;
    expect(first[0]).toBe(`${top.reserve0.token.symbol}/${top.reserve1.token.symbol}`);
    expect(first[1]).toBe(`${top.dex} (${top.feeBps / 100}%)`);
    const [whole, cents = ""] = top.liquidityUSD!.split(".");
    expect(first[2]).toBe(
      `$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents.slice(0, 2).padEnd(2, "0")}`,
    );
    expect(first[4]).toBe(String(top.tradeCount24h));
  });

  test("behavior: the quote form shows what /api/quote answers, and its error for an unknown token", async () => {
    const form = visit.page.locator("#quote-form");
    await form.locator("[name=sellToken]").fill("BNB");
    await form.locator("[name=buyToken]").fill("USDT");
    await form.locator("[name=amount]").fill("2.5");
    await form.locator("button[type=submit]").click();
    const price = visit.page.locator("#quote-result .price");
    await price.waitFor({ timeout: 10_000 });
    const answer = (await (
      await fetch(`${base}/api/quote?network=bsc&sellToken=BNB&buyToken=USDT`)
    ).json()) as {
      result: { price: string };
    };
    expect(await price.textContent()).toBe(`1 BNB = ${answer.result.price} USDT`);
    // The amount's own quote: exactly 2.5 BNB along the best route, as Query.quote answers it.
    const { quote } = await gql<{
      quote: { buyAmount: string; priceImpact: string; route: { pools: { dex: string }[] } };
    }>(
      `{ quote(network: bsc, sellToken: "BNB", buyToken: "USDT", sellAmount: "2500000000000000000") {
          buyAmount priceImpact route { pools { dex } } } }`,
    );
    const amountLine = visit.page.locator("#quote-result .muted");
    await amountLine.waitFor({ timeout: 10_000 });
    expect(await amountLine.textContent()).toBe(
      `2.5 BNB → ${formatDecimal(fromUnits(quote.buyAmount, 18), 8)} USDT (price impact ${formatPercent(quote.priceImpact)}%, ` +
        `via ${quote.route.pools.map((pool) => pool.dex).join(" → ")})`,
    );
    expect(BigInt(quote.buyAmount)).toBeGreaterThan(0n);
    // More decimals than the token has: said on the page, nothing sent for it.
    await form.locator("[name=amount]").fill("0.0000000000000000001");
    await form.locator("button[type=submit]").click();
    await expect
      .poll(() => amountLine.textContent())
      .toBe("0.0000000000000000001 BNB: The token has 18 decimals: 0.0000000000000000001 has more.");
    await form.locator("[name=amount]").fill("2.5");

    await form.locator("[name=sellToken]").fill("NOSUCHTOKEN");
    await form.locator("button[type=submit]").click();
    const refused = await fetch(`${base}/api/quote?network=bsc&sellToken=NOSUCHTOKEN&buyToken=USDT`);
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: string };
    expect(error).toMatch(/NOSUCHTOKEN/);
    await expect.poll(() => visit.page.locator("#quote-result").textContent()).toBe(error);
    expect(await visit.page.locator("#quote-result").getAttribute("class")).toBe("error");
  });

  test("behavior: a token whose text is HTML (<img src=x onerror=...>) is shown as that text, never run as HTML", async () => {
    const dirty = chain.hostile.dirty;
    const answer = await fetch(`${base}/api/quote?network=bsc&sellToken=${dirty}&buyToken=BNB`);
    expect(answer.status).toBe(200);
    const { result } = (await answer.json()) as {
      result: { price: string; sell_token: { name: string; symbol: string } };
    };
    // The API serves the chain's text with only its controls and invisible characters taken out.
    expect(result.sell_token.symbol).toBe("[31m<img src=x onerror=__x=1>");
    expect(result.sell_token.name).toBe("Evil <b>Pooh's</b> <img src=x onerror=__x=1> Tøkén 币 coin");
    // The page's error list holds the earlier tests' refused quotes: only what this one adds counts.
    const errorsBefore = visit.errors.length;
    const form = visit.page.locator("#quote-form");
    await form.locator("[name=sellToken]").fill(dirty);
    await form.locator("[name=buyToken]").fill("BNB");
    await form.locator("[name=amount]").fill("1");
    await form.locator("button[type=submit]").click();
    const price = visit.page.locator("#quote-result .price");
    await expect
      .poll(() => price.textContent())
      .toBe(`1 [31m<img src=x onerror=__x=1> = ${result.price} BNB`);
    await visit.page.locator("#quote-result .muted").waitFor({ timeout: 10_000 });
    expect(await visit.page.locator("#quote-result .muted").textContent()).toMatch(
      /^1 \[31m<img src=x onerror=__x=1> → /,
    );
    // Text, not markup: no element was made of it and its handler never ran.
    expect(await visit.page.locator("#quote-result img, #quote-result b").count()).toBe(0);
    expect(await visit.page.evaluate(() => (window as unknown as { __x?: unknown }).__x)).toBeUndefined();
    expect(visit.errors.slice(errorsBefore)).toEqual([]);
    // An <img src=x> would have asked the server for /x.
    expect(visit.requests.filter((url) => new URL(url).pathname === "/x")).toEqual([]);
    await form.locator("[name=sellToken]").fill("BNB");
    await form.locator("[name=buyToken]").fill("USDT");
    await form.locator("[name=amount]").fill("2.5");
  });

  test("behavior: a swap mined on anvil appears at the top of the live feed", async () => {
    const hash = await sendSwap(chain, {
      path: [NATIVE, "USDT"],
      amountIn: 10n ** 17n,
      trader: chain.traders[3]!,
    });
    const row = visit.page.locator(`#feed tbody tr[data-key^="${hash}:"]`);
    await row.waitFor({ timeout: 15_000 });
    const state = await dashboard();
    const swap = state.feed[0]!;
    expect(swap.txHash).toBe(hash);
    expect(swap.sell).toEqual({ amountDecimal: "0.100000", token: { symbol: "BNB" } });
    expect(swap.buy.token.symbol).toBe("USDT");
    // What a person sees: the first row, with the amounts and the USD value of the swap.
    const cells = await visit.page.locator("#feed tbody tr").first().locator("td").allTextContents();
    expect(cells.slice(1)).toEqual([
      "0.100000 BNB",
      `${swap.buy.amountDecimal} USDT`,
      formatUsd(swap.volumeUSD),
      `${hash.slice(0, 10)}…`,
    ]);
    expect(Number(swap.volumeUSD)).toBeGreaterThan(0);
    expect(await visit.page.locator("#feed-empty").isHidden()).toBe(true);
  });

  test("behavior: after a reorg the feed drops the swaps of the old branch and shows the new one", async () => {
    const row = (hash: string) => visit.page.locator(`#feed tbody tr[data-key^="${hash}:"]`);
    const id = await snapshot(chain.rpcUrl);
    const orphaned = await sendSwap(chain, {
      path: [NATIVE, "USDT"],
      amountIn: 11n * 10n ** 16n,
      trader: chain.traders[4]!,
    });
    await row(orphaned).waitFor({ timeout: 15_000 });
    await revert(chain.rpcUrl, id);
    // A longer branch: the indexer moves to it.
    const canonical = [
      await sendSwap(chain, {
        path: [NATIVE, "BUSD"],
        amountIn: 12n * 10n ** 16n,
        trader: chain.traders[5]!,
      }),
      await sendSwap(chain, {
        path: [NATIVE, "BUSD"],
        amountIn: 13n * 10n ** 16n,
        trader: chain.traders[6]!,
      }),
    ];
    for (const hash of canonical) await row(hash).waitFor({ timeout: 20_000 });
    await row(orphaned).waitFor({ state: "detached", timeout: 10_000 });
    const { feed } = await dashboard();
    expect(feed.map((swap) => swap.txHash)).not.toContain(orphaned);
    // Newest first.
    expect(feed.slice(0, 2).map((swap) => swap.txHash)).toEqual([...canonical].reverse());
  });

  test("behavior: hashed assets are cached for a year, the page revalidates, an unknown asset is a JSON 404", async () => {
    const page = await rawRequest(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    const script = /src="\.\/(assets\/index-[\w-]+\.js)"/.exec(page.body.toString("utf8"))?.[1];
    expect(script).toBeDefined();
    const asset = await rawRequest(`${base}/${script}`, { "Accept-Encoding": "gzip" });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-encoding"]).toBe("gzip");
    for (const path of ["/assets/index-nothere.js", "/assets/..%2Fpackage.json", "/assets/index.html"]) {
      const missing = await rawRequest(`${base}${path}`);
      expect(missing.status, path).toBe(404);
      expect(JSON.parse(missing.body.toString("utf8")), path).toHaveProperty("error");
    }
  });
});

describe.skipIf(!chromiumAvailable)("the dashboard across a server restart", () => {
  test("behavior: when a draining server ends the feed, the page reconnects to the server that takes its place, catches up on the swaps it missed and shows new ones", async () => {
    // Server A: its own indexer and store, drained as SIGTERM drains (the feed completes every
    // stream), then gone; server B (the file's indexer) takes its address.
    const storeA = createSqliteStore({ path: ":memory:" });
    await storeA.migrate();
    const indexingA = createIndexing({
      networks: [{ ...devnet.networks[0]!, pollIntervalMs: 100 }],
      store: storeA,
      log: silent,
      role: "all",
    });
    const { server: serverA } = await createTestServer(indexingA.views, { logger: quiet, dashboardDir });
    await new Promise<void>((resolve) => serverA.listen(0, "127.0.0.1", resolve));
    const port = (serverA.address() as AddressInfo).port;
    let serverB: Server | undefined;
    let page: PageVisit | undefined;
    try {
      indexingA.start();
      await waitUntilIndexed(indexingA.views, "bsc", {
        to: await chainHead(),
        ready: false,
        timeoutMs: 60_000,
        what: "server A at the head",
      });
      page = await browser.visit(`http://127.0.0.1:${port}/`, { waitUntil: "load" });
      const state = () =>
        page!.page.evaluate(() => {
          const { feedOpen, feedConnections, feed } = (
            window as unknown as { __dashboard: Dashboard & { feedConnections: number } }
          ).__dashboard;
          return { feedOpen, feedConnections, hashes: feed.map((swap) => swap.txHash) };
        });
      await expect.poll(async () => (await state()).feedOpen, { timeout: 20_000 }).toBe(true);
      expect((await state()).feedConnections).toBe(1);

      await indexingA.stop();
      await expect
        .poll(() => page!.page.locator("#feed-state").textContent(), { timeout: 10_000 })
        .toMatch(/^ended by the server, reconnecting in \d+ s…$/);
      await close(serverA);
      // A swap while the page has no server: the next stream resumes after the page's last block.
      const missed = await sendSwap(chain, {
        path: [NATIVE, "USDT"],
        amountIn: 2n * 10n ** 16n,
        trader: chain.traders[7]!,
      });
      const missedHead = await chainHead();
      await waitUntilIndexed(indexing.views, "bsc", {
        to: missedHead,
        ready: false,
        timeoutMs: 30_000,
        what: "server B's indexer",
      });

      ({ server: serverB } = await createTestServer(indexing.views, { logger: quiet, dashboardDir }));
      await new Promise<void>((resolve) => serverB!.listen(port, "127.0.0.1", resolve));
      await expect.poll(async () => (await state()).feedOpen, { timeout: 40_000 }).toBe(true);
      expect((await state()).feedConnections).toBeGreaterThanOrEqual(2);
      expect(await page.page.locator("#feed-state").textContent()).toBe("live");

      const hash = await sendSwap(chain, {
        path: [NATIVE, "USDT"],
        amountIn: 10n ** 16n,
        trader: chain.traders[6]!,
      });
      await page.page.locator(`#feed tbody tr[data-key^="${hash}:"]`).waitFor({ timeout: 15_000 });
      // Newest first: the live swap, then the one mined while disconnected, each once.
      const hashes = (await state()).hashes;
      expect(hashes.slice(0, 2)).toEqual([hash, missed]);
      expect(new Set(hashes).size).toBe(hashes.length);
      expect(await page.page.locator(`#feed tbody tr[data-key^="${missed}:"]`).count()).toBe(1);
    } finally {
      await page?.page.close();
      await indexingA.stop();
      await storeA.close();
      if (serverA.listening) await close(serverA);
      if (serverB !== undefined) await close(serverB);
    }
  }, 120_000);
});

describe("without a dashboard build", () => {
  test("error: / answers 503 with a page that says to run npm run build, and links everything else", async () => {
    const empty = mkdtempSync(join(tmpdir(), "swapgraph-no-dashboard-"));
    const bare = await listen(empty);
    try {
      const page = await rawRequest(`${bare.base}/`);
      expect(page.status).toBe(503);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      const html = page.body.toString("utf8");
      expect(html).toContain("The dashboard is not built here: run <code>npm run build</code>");
      for (const href of ["/docs", "/graphql", "/openapi.json", "/health", "/ready", "/metrics"]) {
        expect(html).toContain(`href="${href}"`);
      }
      expect((await rawRequest(`${bare.base}/assets/index-abc.js`)).status).toBe(404);
      if (chromiumAvailable) {
        const seen = await browser.visit(`${bare.base}/`);
        expect(await seen.page.getByRole("alert").textContent()).toBe(
          "The dashboard is not built here: run npm run build (or npm install), then reload.",
        );
        expect(seen.external).toEqual([]);
        await seen.page.close();
      }
    } finally {
      await close(bare.server);
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
