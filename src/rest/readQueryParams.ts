import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import { NETWORKS } from "../domain/types.js";
import { BadRequestError } from "../errors.js";
import { isSwapCursor } from "../graphql/swapCursor.js";
import { MAX_SWAPS_LIMIT } from "./restLimits.js";

/** A parsed query string: one string per parameter, a list when it was repeated. */
export type QueryParams = Record<string, string | string[]>;

/**
 * Parses a query string for the route schemas: an empty parameter counts as missing (as the
 * README says of every parameter), a repeated one becomes a list (which the schemas refuse).
 * The object has no prototype, so a parameter named `__proto__` is only a parameter.
 */
export function parseQueryString(text: string): QueryParams {
  const query: QueryParams = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (value === "") continue;
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

function shown(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}...` : text);
}

/**
 * The 400 of a query that its route schema refused, worded for the parameter at fault (the
 * first error: the schemas validate until the first one).
 */
export function formatQueryErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  if (error === undefined) return new BadRequestError(`The ${dataVar} is not valid.`);
  const params = error.params as Record<string, unknown>;
  const name =
    error.keyword === "required" ? String(params.missingProperty) : error.instancePath.replace(/^\//, "");
  const data = (error as { data?: unknown }).data;
  if (Array.isArray(data)) return new BadRequestError(`${name} was given more than once; give it once.`);
  switch (name) {
    case "network":
      return new BadRequestError(
        `network ${shown(data)} is not supported; use one of: ${NETWORKS.join(", ")}.`,
      );
    case "sellToken":
    case "buyToken":
      return new BadRequestError(`${name} is required: give a token symbol or a contract address.`);
    case "limit":
      return new BadRequestError(`limit must be an integer from 1 to ${MAX_SWAPS_LIMIT}.`);
    case "cursor":
      return invalidCursor();
    default:
      return new BadRequestError(`${name || dataVar} is not valid: ${error.message ?? "refused"}.`);
  }
}

function invalidCursor(): BadRequestError {
  return new BadRequestError("cursor is not valid: pass the X-Next-Cursor header of a previous answer.");
}

/** The `cursor` of a paged list, past its schema: one this server could have given. */
export function readCursor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isSwapCursor(value)) throw invalidCursor();
  return value;
}
