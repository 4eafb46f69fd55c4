// Its own module: the HTTP edge reads the body limit without loading yoga and the schema, which
// are built on first use (createLazyGraphqlServer).

/**
 * Limits sized for the schema. It has no cycles, so depth is bounded anyway (the deepest
 * field, swaps.edges.node.sell.token.address, is at 6); the depth limit guards future types.
 * The cost (computeQueryCost) multiplies a selection by its page size as the request gives it,
 * literal, variable or default: one full page of 1000 swaps with every field costs about 200k,
 * two such pages are refused.
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2_000,
  maxCost: 250_000,
  maxRequestBodySize: 100_000,
} as const;
