import type { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Logger } from "pino";

/** Codes of errors this server caused: logged at error level, with their cause, where they are masked. */
const SERVER_CODES = new Set(["INTERNAL", "RPC_ERROR", "DEEP_REORG", "LOST_WRITER_LOCK", "CONFIG_INVALID"]);

/**
 * Logs the errors a caller caused (bad variables, validation, NOT_READY, cost refusals, too
 * large bodies) from the answer they get: one record per answer, no stack, at debug; cost
 * refusals at info, since they can mean abuse. Errors of the server itself are left to the
 * masking path, which logs them at error level with their cause.
 */
export function useClientErrorLogging(logger: Logger): Plugin {
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result) || !("errors" in result)) return;
      const client = (result.errors ?? []).filter(
        (error) => !SERVER_CODES.has(String(error.extensions?.code ?? "")),
      );
      if (client.length === 0) return;
      const errors = client.map((error: GraphQLError) => ({
        // Syntax and validation errors of graphql-js carry no code.
        code: error.extensions?.code ?? null,
        message: error.message,
        ...(error.path === undefined ? {} : { path: error.path.join(".") }),
      }));
      const level = errors.some((error) => error.code === "COST_LIMIT") ? "info" : "debug";
      logger[level]({ errors }, "graphql client error");
    },
  };
}
