import { LISTING_ENDPOINTS } from "./createListingRoutes.js";
import { LISTING_PARAMS_SCHEMA } from "./listingSchemas.js";

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** "/coingecko/:network/pairs" as OpenAPI writes it: "/coingecko/{network}/pairs". */
export function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

/** The OpenAPI paths of the listing endpoints (CoinGecko's and CoinMarketCap's DEX formats). */
export function buildListingOpenApiPaths(): Record<string, Record<string, unknown>> {
  const { description, ...schema } = LISTING_PARAMS_SCHEMA.properties.network;
  const parameters = [{ name: "network", in: "path", required: true, description, schema }];
  return Object.fromEntries(
    LISTING_ENDPOINTS.map((endpoint) => [
      openApiPathOf(endpoint.path),
      {
        get: {
          operationId: `listing${endpoint.summary.replace(/[^A-Za-z]/g, "")}`,
          tags: ["Listings"],
          summary: endpoint.summary,
          description:
            `${endpoint.description} Base is the pool's token0 and target (quote) its token1; a pair is one ` +
            "pool, named base_target_pool by contract addresses. Kept per indexed block and hour.",
          parameters,
          responses: {
            "200": {
              description: "The answer in the aggregator's format.",
              headers: {
                "X-Indexed-Block": ref("headers", "X-Indexed-Block"),
                "X-Data-Age": ref("headers", "X-Data-Age"),
                ETag: ref("headers", "ETag"),
                "Cache-Control": ref("headers", "Cache-Control"),
              },
              content: { "application/json": { schema: endpoint.bodySchema } },
            },
            "304": ref("responses", "NotModified"),
            "400": ref("responses", "BadRequest"),
            "405": ref("responses", "MethodNotAllowed"),
            "429": ref("responses", "TooManyRequests"),
            "503": ref("responses", "NotReady"),
            "500": ref("responses", "InternalError"),
          },
        },
      },
    ]),
  );
}
