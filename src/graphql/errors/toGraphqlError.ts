import { GraphQLError } from "graphql";
import { publicMessage } from "../../api/publicMessage.js";
import { RateLimitedError } from "../../errors.js";
import { findSwapgraphError } from "./findSwapgraphError.js";
import { quietError } from "./quietError.js";
import { quietMessage } from "./quietMessage.js";

/** The message every unexpected error is replaced with. */
const MASKED_MESSAGE = "Unexpected error.";

/**
 * The one GraphQL error formatter: a SwapgraphError becomes a GraphQL error with
 * extensions.code and extensions.http.status (a rate limit's with its Retry-After header);
 * GraphQL's own errors (syntax, validation, variable coercion) pass, quieted (quietMessage: no
 * suggestions, no long echo of the input); anything else is masked so no stack, SQL or internal
 * name reaches the caller. Yoga passes every error of an answer through here, validation
 * errors included.
 */
export function toGraphqlError(error: unknown, message: string = MASKED_MESSAGE): GraphQLError {
  const located = error instanceof GraphQLError ? error : undefined;
  const known = findSwapgraphError(error);
  if (known !== undefined) {
    const shown = publicMessage(known);
    // A located error repeats the cause's message, variable coercion prefixes it: keep the outer text.
    return new GraphQLError(quietMessage(shown === known.message ? (located?.message ?? shown) : shown), {
      nodes: located?.nodes ?? null,
      source: located?.source ?? null,
      positions: located?.positions ?? null,
      path: located?.path ?? null,
      extensions: {
        ...located?.extensions,
        code: known.code,
        // Yoga sends extensions.http.headers with the answer (and leaves `http` out of the body).
        http:
          known instanceof RateLimitedError
            ? { status: known.status, headers: { "Retry-After": String(known.retryAfterSeconds) } }
            : { status: known.status },
      },
    });
  }
  if (located !== undefined && isGraphqlOwn(located)) return quietError(located);
  return new GraphQLError(message, {
    nodes: located?.nodes ?? null,
    source: located?.source ?? null,
    positions: located?.positions ?? null,
    path: located?.path ?? null,
    extensions: { code: "INTERNAL", http: { status: 500 } },
  });
}

// Errors graphql-js or a plugin raised itself (no foreign cause): safe to show as they are.
function isGraphqlOwn(error: GraphQLError): boolean {
  const cause = error.originalError;
  if (cause === undefined || cause === null) return true;
  return cause instanceof GraphQLError && isGraphqlOwn(cause);
}
