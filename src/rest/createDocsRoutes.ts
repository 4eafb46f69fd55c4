import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";
import { buildOpenApi } from "./buildOpenApi.js";
import { acceptsGzip } from "./jsonHeaders.js";
import { renderDocsPage } from "./renderDocsPage.js";
import { renderLandingPage } from "./renderLandingPage.js";

const gzip = promisify(gzipCallback);
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
const LANDING_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

/** A page or file of the documentation and the handler that serves it. */
export interface DocsRoute {
  path: string;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
}

interface Asset {
  type: string;
  body: Buffer;
  /** Compressed once, on the first client that accepts gzip. */
  gzipped?: Promise<Buffer>;
  headers: Record<string, string>;
}

function asset(type: string, body: Buffer | string, headers: Record<string, string>): Asset {
  return { type, body: Buffer.isBuffer(body) ? body : Buffer.from(body), headers };
}

// Assets are compressed once and kept (the compressor would redo a 1 MB script per request).
async function sendAsset(request: FastifyRequest, reply: FastifyReply, item: Asset): Promise<FastifyReply> {
  // Below 1 KB compressing costs more than it saves (as for JSON answers).
  const compress = acceptsGzip(request.headers["accept-encoding"]) && item.body.length >= 1024;
  let bytes = item.body;
  if (compress) {
    item.gzipped ??= gzip(item.body, { level: 9 });
    bytes = await item.gzipped;
    reply.header("Content-Encoding", "gzip");
  }
  return reply
    .headers({
      "Content-Type": item.type,
      "X-Content-Type-Options": "nosniff",
      ...item.headers,
      Vary: "Accept-Encoding",
    })
    .send(bytes);
}

/** An asset read from disk on its first request (a missing file is then a masked 500). */
function lazyFile(path: string, type: string, headers: Record<string, string>): () => Promise<Asset> {
  let loaded: Promise<Asset> | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = readFile(path).then((body) => asset(type, body, headers));
      // A failed read is retried by the next request rather than remembered.
      loaded.catch(() => {
        loaded = undefined;
      });
    }
    return loaded;
  };
}

/**
 * Creates the documentation routes, keyed by path: the landing page (/), the OpenAPI document
 * (/openapi.json, CORS open), the API reference page (/docs, RapiDoc) and RapiDoc's script,
 * served from node_modules so the page works offline.
 */
export function createDocsRoutes(options: { version?: string } = {}): DocsRoute[] {
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
  const landingPage = asset(
    "text/html; charset=utf-8",
    renderLandingPage({ version: document.info.version }),
    {
      "Cache-Control": REVALIDATE,
      "Content-Security-Policy": LANDING_CSP,
    },
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
    { path: "/", handler: serve(() => landingPage) },
    { path: OPENAPI_PATH, handler: serve(() => openApi) },
    { path: DOCS_PATH, handler: serve(() => docsPage) },
    { path: scriptPath, handler: serve(script) },
    { path: `${DOCS_PATH}/rapidoc-min.js.map`, handler: serve(sourceMap) },
  ];
}
