import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { type DocumentedPath, findRouteDrift } from "../openapi/findRouteDrift.js";
import { loadOpenApi } from "../openapi/loadOpenApi.js";
import { renderDocsPage } from "../pages/renderDocsPage.js";
import { readPackageVersion } from "../readPackageVersion.js";
import { refuseOtherMethods, unlimited } from "../routeConfig.js";
import { type Asset, asset, lazyFile, sendAsset } from "../sendAsset.js";

const require = createRequire(import.meta.url);

/** Where the OpenAPI document is served. */
const OPENAPI_PATH = "/openapi.json";
/** Where the API reference page is served. */
const DOCS_PATH = "/docs";

// Pages are small and change with a deployment: revalidate every time. The script's URL names
// its version, so browsers may keep it for a year.
const REVALIDATE = "no-cache";
const IMMUTABLE = "public, max-age=31536000, immutable";

// Nothing but this server: a forgotten font or CDN reference is blocked and reported instead of
// silently fetched. RapiDoc styles its shadow DOM inline and renders data: images.
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Collects the GET routes registered on `app` from now on with an operation of
 * schema/openapi.yaml (`config.operationId`), in the order they were registered.
 */
export function collectDocumentedRoutes(app: FastifyInstance): DocumentedPath[] {
  const routes: DocumentedPath[] = [];
  app.addHook("onRoute", ({ method, url, config }) => {
    const operationId = config?.operationId;
    if (method === "GET" && operationId !== undefined) routes.push({ path: url, operationId });
  });
  return routes;
}

/**
 * The documentation: the REST contract (schema/openapi.yaml) as /openapi.json (CORS open) with
 * the package's version, the API reference page (/docs, RapiDoc) and RapiDoc's script, served
 * from node_modules so the page works offline. None counts against the rate limit. `routes` (the
 * documented routes, all registered by now) and the document must name the same paths: the server
 * does not start otherwise.
 */
export async function docsPlugin(
  app: FastifyInstance,
  options: { routes: readonly DocumentedPath[] },
): Promise<void> {
  const document = loadOpenApi();
  const drift = findRouteDrift(document, options.routes);
  if (drift.length > 0) throw new Error(`The routes and schema/openapi.yaml disagree: ${drift.join(" ")}`);
  const scriptFile = require.resolve("rapidoc/dist/rapidoc-min.js");
  const rapidocVersion = (require("rapidoc/package.json") as { version: string }).version;
  const scriptPath = `${DOCS_PATH}/rapidoc-${rapidocVersion}-min.js`;

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

  const serve = (path: string, load: () => Asset | Promise<Asset>) => {
    app.get(path, { ...unlimited(), compress: false }, async (request, reply) =>
      sendAsset(request, reply, await load()),
    );
    refuseOtherMethods(app, path);
  };
  // Made on its first request: no cost at start.
  let openApi: Asset | undefined;
  serve(OPENAPI_PATH, () => {
    const served = { ...document, info: { ...document.info, version: readPackageVersion() } };
    openApi ??= asset("application/json; charset=utf-8", JSON.stringify(served), {
      "Cache-Control": REVALIDATE,
    });
    return openApi;
  });
  serve(DOCS_PATH, () => docsPage);
  serve(scriptPath, script);
  serve(`${DOCS_PATH}/rapidoc-min.js.map`, sourceMap);
}
