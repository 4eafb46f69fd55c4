import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import { NETWORKS } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { INVALID_CURSOR_MESSAGE } from "./readCursor.js";
import { MAX_SWAPS_LIMIT } from "./restLimits.js";

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
      return new BadRequestError(INVALID_CURSOR_MESSAGE);
    default:
      return new BadRequestError(`${name || dataVar} is not valid: ${error.message ?? "refused"}.`);
  }
}
