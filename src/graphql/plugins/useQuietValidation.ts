import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { quietError } from "../errors/quietError.js";

/**
 * Quiets validation errors (quietError: no "Did you mean ...", no long echo of the input).
 * Yoga's masking formatter (toGraphqlError, which quiets the rest) never sees them. It replaces
 * GraphQL Armor's block-field-suggestions, whose pattern misses graphql-js's enum-value form
 * ('Did you mean the enum value "eth"?') and never sees variable coercion.
 */
export function useQuietValidation(): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid)
          setResult(result.map((error) => (error instanceof GraphQLError ? quietError(error) : error)));
      };
    },
  };
}
