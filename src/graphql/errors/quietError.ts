import { GraphQLError } from "graphql";
import { quietMessage } from "./quietMessage.js";

/** `error` with its message quieted (quietMessage), or `error` itself when there was nothing to quiet. */
export function quietError(error: GraphQLError): GraphQLError {
  const message = quietMessage(error.message);
  if (message === error.message) return error;
  return new GraphQLError(message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: error.extensions,
  });
}
