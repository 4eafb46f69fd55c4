import type { IncomingMessage, ServerResponse } from "node:http";
import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, type YogaLogger, type YogaServerInstance } from "graphql-yoga";
import { type Logger, pino } from "pino";
import type { MarketReader } from "../domain/market.js";
import { SwapgraphError } from "../errors.js";
import { buildSchema } from "./buildSchema.js";
import { createGraphqlContext, type GraphqlContext } from "./createGraphqlContext.js";
import { toGraphqlError } from "./toGraphqlError.js";

/** The node:http objects yoga receives as server context. */
export interface NodeServerContext {
  req: IncomingMessage;
  res: ServerResponse;
}

/** The yoga instance: a node:http handler (`graphql(req, res)`) and `graphql.fetch(...)` for tests. */
export type GraphqlServer = YogaServerInstance<NodeServerContext, GraphqlContext>;

/** Options of createGraphqlServer. */
export interface GraphqlServerOptions {
  reader: MarketReader;
  /** Default: pino at info level. */
  logger?: Logger;
  /** The executable schema (default: buildSchema()); pass it to share one with the REST facade. */
  schema?: GraphQLSchema;
}

/**
 * Limits sized for the schema. It has no cycles, so depth is bounded anyway (the deepest
 * field, swaps.edges.node.sell.token.address, is at 6); the depth limit guards future types.
 * The cost plugin multiplies a selection by a literal `first`: one full page of 1000 swaps
 * with every field costs about 200k, two such pages are refused. A `first` given as a
 * variable is not priced, but it is capped at 1000 and aliases at 15.
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 10,
  maxAliases: 15,
  maxTokens: 2_000,
  maxCost: 250_000,
  maxRequestBodySize: 100_000,
} as const;

// Yoga logs every error the formatter replaced, expected ones included: those are the caller's
// mistakes (debug), the rest are ours (error, with the cause's stack).
function toYogaLogger(logger: Logger): YogaLogger {
  const child = logger.child({ component: "graphql" });
  const forward =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]): void => {
      const [first, ...rest] = args;
      if (!(first instanceof Error)) {
        child[level](args.map(String).join(" "));
        return;
      }
      const cause = first instanceof GraphQLError ? (first.originalError ?? first) : first;
      // NOT_READY (backfilling, halted, stale) is a state the indexer logs, not a failure per request.
      const expected = cause instanceof SwapgraphError && (cause.status < 500 || cause.code === "NOT_READY");
      child[expected ? "debug" : level]({ err: cause }, rest.map(String).join(" ") || first.message);
    };
  return { debug: forward("debug"), info: forward("info"), warn: forward("warn"), error: forward("error") };
}

/** Creates the GraphQL server (graphql-yoga): GraphiQL at /graphql, masked errors, query limits. */
export function createGraphqlServer(options: GraphqlServerOptions): GraphqlServer {
  const { reader } = options;
  const logger = options.logger ?? pino();
  return createYoga<NodeServerContext, GraphqlContext>({
    schema: options.schema ?? buildSchema(),
    graphqlEndpoint: "/graphql",
    graphiql: { title: "swapgraph" },
    landingPage: false,
    multipart: false,
    maxRequestBodySize: GRAPHQL_LIMITS.maxRequestBodySize,
    logging: toYogaLogger(logger),
    maskedErrors: { maskError: (error, message) => toGraphqlError(error, message) },
    context: () => createGraphqlContext(reader, { logger }),
    plugins: [
      maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens }),
      maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true }),
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases }),
      costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost }),
      blockFieldSuggestionsPlugin(),
    ],
  });
}
