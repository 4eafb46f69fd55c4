import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** False only when chromium is missing outside CI; under CI=true the page tests run (and fail) regardless. */
export const chromiumAvailable = existsSync(CHROMIUM) || process.env.CI === "true";
if (!chromiumAvailable) {
  console.warn(
    `No chromium at ${CHROMIUM}: skipping the page tests here (apt-get install chromium; required when CI=true).`,
  );
}

/** What a page did while it loaded, as a person's browser would have seen it. */
export interface PageVisit {
  page: Page;
  /** Every request the page made, by URL. */
  requests: string[];
  /** Requests to anything but the server under test (the page must work offline). */
  external: string[];
  /** Requests that failed or answered 4xx/5xx. */
  failed: string[];
  /** console.error messages and uncaught page errors. */
  errors: string[];
  /** console.warn messages. */
  warnings: string[];
}

/** Options of TestBrowser.visit. */
interface VisitOptions {
  /**
   * When the visit counts as loaded (default "networkidle"). A page holding a stream open (an
   * EventSource) is never network-idle: use "load" and await its own readiness.
   */
  waitUntil?: "load" | "domcontentloaded" | "networkidle";
  /** Viewport size (default playwright's 1280x720). */
  viewport?: { width: number; height: number };
}

/** A headless Chromium for page tests; close() ends it and removes its profile. */
export interface TestBrowser {
  /** Opens `url` in a new page and waits until the network is idle (or as `options` say). */
  visit(url: string, options?: VisitOptions): Promise<PageVisit>;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium as the machine's notes say it must run here (root, closed network):
 * no sandbox, no background networking, a fresh profile.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "swapgraph-chromium-"));
  const browser: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    async visit(url, options = {}) {
      const origin = new URL(url).origin;
      const page = await browser.newPage();
      if (options.viewport !== undefined) await page.setViewportSize(options.viewport);
      const visit: PageVisit = { page, requests: [], external: [], failed: [], errors: [], warnings: [] };
      page.on("request", (request) => {
        const target = request.url();
        visit.requests.push(target);
        if (!target.startsWith(origin) && !target.startsWith("data:") && !target.startsWith("blob:")) {
          visit.external.push(target);
        }
      });
      page.on("requestfailed", (request) =>
        visit.failed.push(`${request.url()} (${request.failure()?.errorText})`),
      );
      page.on("response", (response) => {
        if (response.status() >= 400) visit.failed.push(`${response.url()} (${response.status()})`);
      });
      page.on("console", (message) => {
        if (message.type() === "error") visit.errors.push(message.text());
        if (message.type() === "warning") visit.warnings.push(message.text());
      });
      page.on("pageerror", (error) => visit.errors.push(error.message));
      await page.goto(url, { waitUntil: options.waitUntil ?? "networkidle" });
      return visit;
    },
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
