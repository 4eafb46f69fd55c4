import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LANDING_EXAMPLES } from "../../src/http/pages/renderLandingPage.js";
import { chromiumAvailable, launchBrowser, type TestBrowser } from "../support/browser.js";
import { createFixtureReader, type Fixture } from "../support/fixtureReader.js";
import { rawRequest, startServer, type TestServer } from "./support.js";

let fixture: Fixture;
let api: TestServer;
let browser: TestBrowser;
// No dashboard build here: `/` is the page that says so and links everything (the dashboard
// itself is tested in dashboard.test.ts).
const noDashboard = mkdtempSync(join(tmpdir(), "swapgraph-no-dashboard-"));

beforeAll(async () => {
  // Every configured network ready: /ready answers 200 like every other linked page.
  fixture = await createFixtureReader();
  // A browser visits the pages.
  api = await startServer(fixture.reader, { dashboardDir: noDashboard, listen: true });
  if (chromiumAvailable) browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api.close();
  await fixture.close();
  rmSync(noDashboard, { recursive: true, force: true });
});

describe.skipIf(!chromiumAvailable)("GET /docs", () => {
  test("behavior: a person sees the three endpoints, and the page asks nothing of any other host", async () => {
    const visit = await browser.visit(`${api.baseUrl}/docs`);
    // RapiDoc renders into open shadow roots; playwright's locators pierce them.
    for (const path of ["/api/quote", "/api/swaps_24h", "/api/trade_volume_usd_7d"]) {
      await expect
        .poll(() => visit.page.getByText(path, { exact: true }).count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
    }
    await expect
      .poll(() => visit.page.getByText("swapgraph market-data API").count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    // The contract's fields and swapgraph's extensions are on the page, from the schemas.
    expect(await visit.page.getByText("amount_decimal", { exact: true }).count()).toBeGreaterThan(0);
    expect(await visit.page.getByText("X-Next-Cursor", { exact: true }).count()).toBeGreaterThan(0);

    expect(visit.requests).toContain(`${api.baseUrl}/openapi.json`);
    expect(visit.requests.some((url) => /\/docs\/rapidoc-[\d.]+-min\.js$/.test(url))).toBe(true);
    expect(visit.external).toEqual([]);
    expect(visit.failed).toEqual([]);
    expect(visit.errors).toEqual([]);
    // Fonts are the system's: RapiDoc's own Open Sans would come from fonts.gstatic.com.
    const families = await visit.page.evaluate(() => [...document.fonts].map((font) => font.family));
    expect(families).not.toContain("Open Sans");
    await visit.page.close();
  });

  test("behavior: RapiDoc's script is served from this server, long-cached and gzip-compressed", async () => {
    const page = await rawRequest(`${api.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    const html = page.body.toString("utf8");
    expect(html).toContain('load-fonts="false"');
    const src = /<script type="module" src="([^"]+)"/.exec(html)?.[1];
    expect(src).toMatch(/^\/docs\/rapidoc-\d+\.\d+\.\d+-min\.js$/);

    const plain = await rawRequest(`${api.baseUrl}${src}`);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.body.length).toBeGreaterThan(500_000);
    const gzipped = await rawRequest(`${api.baseUrl}${src}`, { "Accept-Encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 3);
    const { gunzipSync } = await import("node:zlib");
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
  });
});

describe.skipIf(!chromiumAvailable)("GET /", () => {
  test("error: without a dashboard build, / says what this is and how to build it, links everything, and every link answers", async () => {
    const visit = await browser.visit(`${api.baseUrl}/`);
    expect(await visit.page.getByRole("heading", { level: 1 }).textContent()).toBe("swapgraph");
    expect(await visit.page.locator("main").textContent()).toMatch(/market-data gateway/);
    expect(await visit.page.getByRole("alert").textContent()).toMatch(/run npm run build/);
    const hrefs = await visit.page
      .locator("a")
      .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).getAttribute("href") ?? ""));
    expect(hrefs).toEqual([
      "/docs",
      "/openapi.json",
      "/graphql",
      ...LANDING_EXAMPLES.map((example) => example.href),
      "/health",
      "/ready",
      "/metrics",
    ]);
    expect(visit.requests).toEqual([`${api.baseUrl}/`]);
    // The page is the 503's body (chromium logs the status); nothing else failed.
    expect(visit.failed).toEqual([`${api.baseUrl}/ (503)`]);
    expect(visit.errors).toEqual([
      "Failed to load resource: the server responded with a status of 503 (Service Unavailable)",
    ]);

    // Follow each link in the browser (its own Accept header: /graphql answers GraphiQL).
    for (const href of hrefs) {
      const response = await visit.page.goto(new URL(href, `${api.baseUrl}/`).href, { waitUntil: "load" });
      expect(response?.status(), href).toBeLessThan(400);
    }
    await visit.page.close();
  });
});
