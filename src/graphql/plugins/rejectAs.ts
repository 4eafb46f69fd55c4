import { GraphQLError } from "graphql";

/**
 * An `onReject` handler for a GraphQL Armor limit (aliases, depth, tokens): it throws the
 * library's refusal again as an HTTP 400 with `extensions.code`, whatever the Accept header.
 * Armor's own error carries neither, so yoga answered it 200 (a thrown validation error is not
 * in the result yoga marks as a validation failure). The plugin's `propagateOnRejection` must
 * be false: this throw replaces its own.
 */
export function rejectAs(code: string): (context: unknown, error: GraphQLError) => never {
  return (_context, error) => {
    throw new GraphQLError(error.message, { extensions: { code, http: { status: 400 } } });
  };
}
