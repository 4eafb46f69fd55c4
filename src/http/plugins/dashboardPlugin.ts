import { readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { SwapgraphError } from "../../errors.js";
import { renderLandingPage } from "../pages/renderLandingPage.js";
import { readPackageVersion } from "../readPackageVersion.js";
import { refuseOtherMethods, unlimited } from "../routeConfig.js";
import { type Asset, asset, sendAsset } from "../sendAsset.js";

/**
 * Where `npm run build` (scripts/buildDashboard.mjs) puts the dashboard: web/dist/ at the project
 * root, found from this file in src/http/plugins/ and in dist/http/plugins/ alike.
 */
const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../../web/dist/", import.meta.url));

/** The prefix of the dashboard's built files (Vite's assetsDir; the page links them as ./assets/). */
const DASHBOARD_ASSETS_PATH = "/assets";

// The page names its scripts and styles by content hash: they never change under one URL.
const IMMUTABLE = "public, max-age=31536000, immutable";
// Everything from this server; the charts draw on canvas, the feed is an EventSource on /graphql.
const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const MISSING_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
};
// A file name Vite writes (name-hash.ext): no path, no dot file.
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * The dashboard: `/` (web/dist/index.html, revalidated) and its hashed files under /assets/
 * (cached for a year). Nothing is read at start: while the build is missing, `/` answers 503
 * with a page that says to run `npm run build` (and links everything else), and a build made
 * later is picked up without a restart.
 */
export async function dashboardPlugin(
  app: FastifyInstance,
  options: { version?: string; dir?: string } = {},
): Promise<void> {
  const dir = options.dir ?? DEFAULT_DASHBOARD_DIR;
  const indexFile = join(dir, "index.html");
  const assetsDir = join(dir, "assets");
  const missing = asset(
    "text/html; charset=utf-8",
    renderLandingPage({
      version: options.version ?? readPackageVersion(),
      notice: "The dashboard is not built here: run `npm run build` (or `npm install`), then reload.",
    }),
    { "Cache-Control": "no-store", "Content-Security-Policy": MISSING_CSP },
  );
  // index.html is kept until its file changes (a rebuild names new assets).
  let page: { mtimeMs: number; asset: Asset } | undefined;
  const assets = new Map<string, Promise<Asset>>();

  const index: Handler = async (request, reply) => {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(indexFile)).mtimeMs;
    } catch (error) {
      if (!isMissing(error)) throw error;
      return sendAsset(request, reply, missing, 503);
    }
    if (page?.mtimeMs !== mtimeMs) {
      const body = await readFile(indexFile);
      page = {
        mtimeMs,
        asset: asset("text/html; charset=utf-8", body, {
          "Cache-Control": "no-cache",
          "Content-Security-Policy": DASHBOARD_CSP,
        }),
      };
    }
    return sendAsset(request, reply, page.asset);
  };

  const file: Handler = async (request, reply) => {
    const name = (request.params as { file?: string }).file ?? "";
    const type = TYPES[extname(name)];
    const notFound = () => new SwapgraphError("NOT_FOUND", `Unknown path ${DASHBOARD_ASSETS_PATH}/${name}.`);
    if (!ASSET_NAME.test(name) || type === undefined) throw notFound();
    let loading = assets.get(name);
    if (loading === undefined) {
      loading = readFile(join(assetsDir, name)).then((body) =>
        asset(type, body, { "Cache-Control": IMMUTABLE }),
      );
      assets.set(name, loading);
      // A failed read (not built yet, or an old name) is not remembered.
      loading.catch(() => assets.delete(name));
    }
    let item: Asset;
    try {
      item = await loading;
    } catch (error) {
      if (isMissing(error)) throw notFound();
      throw error;
    }
    return sendAsset(request, reply, item);
  };

  for (const [path, handler] of [
    ["/", index],
    [`${DASHBOARD_ASSETS_PATH}/:file`, file],
  ] as const) {
    app.get(path, { ...unlimited(), compress: false }, handler);
    refuseOtherMethods(app, path);
  }
}
