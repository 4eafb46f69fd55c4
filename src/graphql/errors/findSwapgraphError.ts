import { GraphQLError } from "graphql";
import { SwapgraphError } from "../../errors.js";

/** The SwapgraphError behind a (possibly wrapped) GraphQL error, if one is. */
export function findSwapgraphError(error: unknown): SwapgraphError | undefined {
  let current: unknown = error;
  // Errors get wrapped (located errors, variable coercion); the cause chain is short.
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof SwapgraphError) return current;
    current = current instanceof GraphQLError ? current.originalError : undefined;
  }
  return undefined;
}
