import { type DocumentNode, type ExecutionResult, type GraphQLSchema, parse, validate } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { Logger } from "pino";
import { createGraphqlContext } from "../../src/graphql/context/createGraphqlContext.js";
import { findSwapgraphError } from "../../src/graphql/errors/findSwapgraphError.js";
import type { MarketReader } from "../../src/views/types.js";

/** A fixed operation, parsed, validated and compiled once (see GraphqlExecutor.prepare). */
export interface PreparedOperation {
  readonly document: DocumentNode;
  /** The operation compiled to a function of (root, context, variables) by graphql-jit, on first use. */
  readonly compiled: CompiledQuery;
}

/** One request's use of the GraphQL API: one clock and one token loader for all its operations. */
export interface GraphqlSession {
  /** Unix seconds of the request. */
  readonly now: number;
  /** Unix milliseconds of the request. */
  readonly nowMs: number;
  /** Executes a prepared operation; throws the SwapgraphError behind its first error (or that error). */
  run<T>(operation: PreparedOperation, variables: Record<string, unknown>): Promise<T>;
}

/** Executes fixed operations in-process against the schema the GraphQL endpoint serves. */
export interface GraphqlExecutor {
  /**
   * Parses and validates an operation once (at start: one that drifted from the schema fails
   * then); the same text prepared again is the same operation. It is compiled on first use.
   */
  prepare(source: string): PreparedOperation;
  /** Opens the session of one request. */
  session(nowMs?: number): GraphqlSession;
}

/** The data of a result, or the SwapgraphError behind its first error (a GraphQL error wraps the resolver's). */
function dataOf<T>(result: ExecutionResult): T {
  const first = result.errors?.[0];
  if (first !== undefined) throw findSwapgraphError(first) ?? first;
  return result.data as T;
}

/**
 * Creates the in-process GraphQL executor the REST facade runs its fixed operations with (no
 * HTTP hop, no yoga): the REST side sees operations and results, never the reader or contexts.
 * The operations are fixed, so each is compiled once (graphql-jit: the same schema, resolvers and
 * result, without graphql-js' per-field interpretation, which cost most of a streamed list).
 */
export function createGraphqlExecutor(options: {
  reader: MarketReader;
  schema: GraphQLSchema;
  logger?: Logger;
}): GraphqlExecutor {
  const { reader, schema, logger } = options;
  const prepared = new Map<string, PreparedOperation>();
  return {
    prepare(source) {
      const known = prepared.get(source);
      if (known !== undefined) return known;
      const document = parse(source);
      const errors = validate(schema, document);
      // Compiled code does not validate: a document that drifted from the schema must fail at start.
      if (errors.length > 0) throw new Error(`An operation does not match the schema: ${errors[0]!.message}`);
      // Compiling (graphql-jit) is most of preparing: done when the operation first runs, so the
      // start does not pay for the routes nobody asked for yet.
      let compiled: CompiledQuery | undefined;
      const operation: PreparedOperation = {
        document,
        get compiled() {
          if (compiled !== undefined) return compiled;
          const result = compileQuery(schema, document);
          if (!isCompiledQuery(result)) {
            throw new Error(
              `An operation does not compile: ${result.errors?.[0]?.message ?? "unknown error"}`,
            );
          }
          compiled = result;
          return compiled;
        },
      };
      prepared.set(source, operation);
      return operation;
    },
    session(nowMs = Date.now()) {
      const context = createGraphqlContext(reader, logger === undefined ? { nowMs } : { logger, nowMs });
      return {
        now: context.now,
        nowMs: context.nowMs,
        async run<T>(operation: PreparedOperation, variables: Record<string, unknown>): Promise<T> {
          return dataOf<T>(await operation.compiled.query(undefined, context, variables));
        },
      };
    },
  };
}
