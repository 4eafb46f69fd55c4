import { createRequire } from "node:module";
import type { FastifyReply, FastifyRequest } from "fastify";
import { buildOpenApi } from "./buildOpenApi.js";
import { createDashboardRoutes } from "./createDashboardRoutes.js";
import { renderDocsPage } from "./renderDocsPage.js";
import { type Asset, asset, lazyFile, sendAsset } from "./sendAsset.js";

const require = createRequire(import.meta.url);

/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = "/openapi.json";
/** Where the API reference page is served. */
export const DOCS_PATH = "/docs";

// Pages are small and change with a deployment: revalidate every time. The script's URL names
// its version, so browsers may keep it for a year.
const REVALIDATE = "no-cache";
const IMMUTABLE = "public, max-age=31536000, immutable";

// Nothing but this server: a forgotten font or CDN reference is blocked and reported instead of
// silently fetched. RapiDoc styles its shadow DOM inline and renders data: images.
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** A page or file of the documentation and the handler that serves it. */
export interface DocsRoute {
  path: string;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

/**
 * Creates the documentation routes, keyed by path: the dashboard (/ and its /assets/, see
 * createDashboardRoutes), the OpenAPI document (/openapi.json, CORS open), the API reference
 * page (/docs, RapiDoc) and RapiDoc's script, served from node_modules so the page works offline.
 */
export function createDocsRoutes(options: { version?: string; dashboardDir?: string } = {}): DocsRoute[] {
  const document = buildOpenApi(options.version === undefined ? {} : { version: options.version });
  const scriptFile = require.resolve("rapidoc/dist/rapidoc-min.js");
  const rapidocVersion = (require("rapidoc/package.json") as { version: string }).version;
  const scriptPath = `${DOCS_PATH}/rapidoc-${rapidocVersion}-min.js`;

  const openApi = asset("application/json; charset=utf-8", JSON.stringify(document), {
    "Cache-Control": REVALIDATE,
  });
  const docsPage = asset(
    "text/html; charset=utf-8",
    renderDocsPage({ scriptUrl: scriptPath, specUrl: OPENAPI_PATH }),
    { "Cache-Control": REVALIDATE, "Content-Security-Policy": DOCS_CSP },
  );
  const script = lazyFile(scriptFile, "text/javascript; charset=utf-8", { "Cache-Control": IMMUTABLE });
  // The script names its source map (a relative URL): browser developer tools ask for it.
  const sourceMap = lazyFile(`${scriptFile}.map`, "application/json; charset=utf-8", {
    "Cache-Control": "public, max-age=86400",
  });

  const serve =
    (load: () => Asset | Promise<Asset>): DocsRoute["handler"] =>
    async (request, reply) =>
      sendAsset(request, reply, await load());
  return [
    ...createDashboardRoutes({
      version: document.info.version,
      ...(options.dashboardDir === undefined ? {} : { dir: options.dashboardDir }),
    }),
    { path: OPENAPI_PATH, handler: serve(() => openApi) },
    { path: DOCS_PATH, handler: serve(() => docsPage) },
    { path: scriptPath, handler: serve(script) },
    { path: `${DOCS_PATH}/rapidoc-min.js.map`, handler: serve(sourceMap) },
  ];
}
