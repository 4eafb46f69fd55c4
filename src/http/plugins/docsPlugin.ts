import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { buildOpenApi, type RegisteredRoute } from "../openapi/buildOpenApi.js";
import { renderDocsPage } from "../pages/renderDocsPage.js";
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
 * Collects the GET routes registered on `app` from now on with a description (`config.openapi`,
 * a RouteDoc): what /openapi.json describes, in the order they were registered.
 */
export function collectDocumentedRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook("onRoute", ({ method, url, schema, config }) => {
    const doc = config?.openapi;
    if (method !== "GET" || doc === undefined) return;
    const { params, querystring } = (schema ?? {}) as { params?: object; querystring?: object };
    routes.push({
      path: url,
      ...(params === undefined ? {} : { params }),
      ...(querystring === undefined ? {} : { querystring }),
      doc,
    });
  });
  return routes;
}

/**
 * The documentation: the OpenAPI document of `routes` (/openapi.json, CORS open), made on its
 * first request rather than at start, the API reference page (/docs, RapiDoc) and RapiDoc's
 * script, served from node_modules so the page works offline. None counts against the rate limit.
 */
export async function docsPlugin(
  app: FastifyInstance,
  options: { routes: readonly RegisteredRoute[] },
): Promise<void> {
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
  // Made on its first request: no cost at start, and every route is registered by then.
  let openApi: Asset | undefined;
  serve(OPENAPI_PATH, () => {
    openApi ??= asset("application/json; charset=utf-8", JSON.stringify(buildOpenApi(options.routes)), {
      "Cache-Control": REVALIDATE,
    });
    return openApi;
  });
  serve(DOCS_PATH, () => docsPage);
  serve(scriptPath, script);
  serve(`${DOCS_PATH}/rapidoc-min.js.map`, sourceMap);
}
