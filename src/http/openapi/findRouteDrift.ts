import type { OpenApiDocument } from "./loadOpenApi.js";

/** A GET route registered with an operationId: its path as Fastify writes it (`:name`). */
export interface DocumentedPath {
  path: string;
  operationId: string;
}

/** "/coingecko/:network/pairs" as OpenAPI writes it: "/coingecko/{network}/pairs". */
function openApiPathOf(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, "{$1}");
}

/**
 * Where the registered routes and the document disagree, one sentence each (none: []): a route
 * whose operation the document lacks or puts at another path, a documented path no route serves.
 */
export function findRouteDrift(document: OpenApiDocument, routes: readonly DocumentedPath[]): string[] {
  const documented = new Map(
    Object.entries(document.paths).map(([path, item]) => [path, item.get.operationId]),
  );
  const served = new Set(routes.map(({ path }) => openApiPathOf(path)));
  return [
    ...routes
      .filter(({ path, operationId }) => documented.get(openApiPathOf(path)) !== operationId)
      .map(
        ({ path, operationId }) => `GET ${path} (${operationId}) is not at that path in schema/openapi.yaml.`,
      ),
    ...[...documented]
      .filter(([path]) => !served.has(path))
      .map(([path, operationId]) => `${path} (${operationId}) of schema/openapi.yaml is served by no route.`),
  ];
}
