import { type DocumentNode, execute, type GraphQLSchema, parse, validate } from "graphql";
import type { Logger } from "pino";
import type { MarketReader } from "../domain/market.js";
import { createGraphqlContext } from "./createGraphqlContext.js";
import { findSwapgraphError } from "./findSwapgraphError.js";

/** One request's use of the GraphQL API: one clock and one token loader for all its operations. */
export interface GraphqlSession {
  /** Unix seconds of the request. */
  readonly now: number;
  /** Unix milliseconds of the request. */
  readonly nowMs: number;
  /** Executes a prepared operation; throws the SwapgraphError behind its first error (or that error). */
  run<T>(document: DocumentNode, variables: Record<string, unknown>): Promise<T>;
}

/** Executes fixed operations in-process against the schema the GraphQL endpoint serves. */
export interface GraphqlExecutor {
  /** Parses and validates an operation once (at start: one that drifted from the schema fails then). */
  prepare(source: string): DocumentNode;
  /** Opens the session of one request. */
  session(nowMs?: number): GraphqlSession;
}

/**
 * Creates the in-process GraphQL executor the REST facade runs its fixed operations with (no
 * HTTP hop, no yoga): the REST side sees operations and results, never the reader or contexts.
 */
export function createGraphqlExecutor(options: {
  reader: MarketReader;
  schema: GraphQLSchema;
  logger?: Logger;
}): GraphqlExecutor {
  const { reader, schema, logger } = options;
  return {
    prepare(source) {
      const document = parse(source);
      const errors = validate(schema, document);
      // execute() does not validate: a document that drifted from the schema must fail at start.
      if (errors.length > 0) throw new Error(`An operation does not match the schema: ${errors[0]!.message}`);
      return document;
    },
    session(nowMs = Date.now()) {
      const context = createGraphqlContext(reader, logger === undefined ? { nowMs } : { logger, nowMs });
      return {
        now: context.now,
        nowMs: context.nowMs,
        async run<T>(document: DocumentNode, variables: Record<string, unknown>): Promise<T> {
          const result = await execute({
            schema,
            document,
            variableValues: variables,
            contextValue: context,
          });
          const first = result.errors?.[0];
          // The GraphQL error wraps the resolver's error: callers want the cause.
          if (first !== undefined) throw findSwapgraphError(first) ?? first;
          return result.data as T;
        },
      };
    },
  };
}
