import type { IncomingMessage, ServerResponse } from "node:http";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { usePersistedOperations } from "@graphql-yoga/plugin-persisted-operations";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, type GraphiQLOptions, type YogaLogger, type YogaServerInstance } from "graphql-yoga";
import { type Logger, pino } from "pino";
import type { MarketReader } from "../views/types.js";
import { createGraphqlContext, type GraphqlContext } from "./context/createGraphqlContext.js";
import { createMarketStateKey } from "./createMarketStateKey.js";
import { findSwapgraphError } from "./errors/findSwapgraphError.js";
import { toGraphqlError } from "./errors/toGraphqlError.js";
import { GRAPHQL_LIMITS } from "./graphqlLimits.js";
import { type ClientBudgetOptions, createClientBudget } from "./plugins/createClientBudget.js";
import { createDocumentCaches } from "./plugins/createDocumentCaches.js";
import { loadPersistedOperations } from "./plugins/loadPersistedOperations.js";
import { rejectAs } from "./plugins/rejectAs.js";
import { useClientBudget } from "./plugins/useClientBudget.js";
import { useClientErrorLogging } from "./plugins/useClientErrorLogging.js";
import { useCostLimit } from "./plugins/useCostLimit.js";
import { type AnswerVerdict, useKeepableAnswers } from "./plugins/useKeepableAnswers.js";
import { useQuietValidation } from "./plugins/useQuietValidation.js";
import { buildSchema } from "./schema/buildSchema.js";

/** The node:http objects yoga receives as server context. */
interface NodeServerContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** Who the per-client budget charges (the HTTP edge's request.ip); absent: one shared client. */
  clientKey?: string;
  /** Set when the answer may be kept (useKeepableAnswers); absent: nobody keeps answers. */
  verdict?: AnswerVerdict;
}

/**
 * The yoga instance (a node:http handler, `graphql.fetch(...)` for tests) and what the HTTP
 * edge needs to keep answers: the market state a kept answer is valid for (createMarketStateKey).
 */
export type GraphqlServer = YogaServerInstance<NodeServerContext, GraphqlContext> & {
  marketState: () => string;
};

/** Options of createGraphqlServer. */
export interface GraphqlServerOptions {
  reader: MarketReader;
  /** Default: pino at info level. */
  logger?: Logger;
  /** The executable schema (default: buildSchema()); pass it to share one with the REST facade. */
  schema?: GraphQLSchema;
  /**
   * Only the published operations (schema/operations, by their sha256 id) are run; any other
   * document is refused. Default false: ids are accepted, and so are documents.
   */
  persistedOperationsOnly?: boolean;
  /**
   * Per-client budget of query cost and of operations at once (useClientBudget). Absent, or
   * with both `costPerSecond` and `concurrency` 0: none.
   */
  clientBudget?: ClientBudgetOptions;
}

// Yoga logs every error the formatter replaced, expected ones included: those are the caller's
// doing and useClientErrorLogging logs them from the answer, without a stack; the rest are ours
// (error, with the cause's stack).
function toYogaLogger(child: Logger): YogaLogger {
  const forward =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]): void => {
      const [first, ...rest] = args;
      if (!(first instanceof Error)) {
        // Yoga's per-request debug lines: build no string unless they are wanted.
        if (child.isLevelEnabled(level)) child[level](args.map(String).join(" "));
        return;
      }
      const known = findSwapgraphError(first);
      // NOT_READY (backfilling, halted, stale) is a state the indexer logs, not a failure per request.
      if (known !== undefined && (known.status < 500 || known.code === "NOT_READY")) return;
      // An expected 503 (RPC down, deep reorg, lost lock) is one line without a stack.
      if (known !== undefined && known.code !== "INTERNAL" && known.code !== "CONFIG_INVALID") {
        const line = { code: known.code, err: known.message };
        child[level](
          known.details === undefined ? line : { ...line, details: known.details },
          "request failed",
        );
        return;
      }
      const cause = known ?? (first instanceof GraphQLError ? (first.originalError ?? first) : first);
      child[level]({ err: cause }, rest.map(String).join(" ") || first.message);
    };
  return { debug: forward("debug"), info: forward("info"), warn: forward("warn"), error: forward("error") };
}

/** extensions.code of the refusals of the limits above (COST_LIMIT is useCostLimit's). */
const TOKEN_LIMIT_CODE = "TOKEN_LIMIT";
const DEPTH_LIMIT_CODE = "DEPTH_LIMIT";
const ALIAS_LIMIT_CODE = "ALIAS_LIMIT";

// The persisted-operations plugin's refusal, with its message and code, as an HTTP 400.
function persistedRefusal(message: string, code: string) {
  return { message, extensions: { code, http: { status: 400 } } };
}

/** Creates the GraphQL server (graphql-yoga): GraphiQL at /graphql, masked errors, query limits. */
export function createGraphqlServer(options: GraphqlServerOptions): GraphqlServer {
  const { reader } = options;
  const baseLogger = options.logger ?? pino();
  const logger = baseLogger.child({ component: "graphql" });
  // Yoga's default GraphiQL loads from a CDN (a blank page on a closed network); this one carries
  // its scripts and styles inline (about 9 MB), so it is loaded on first view and rendered once.
  let graphiqlPage: Promise<string> | undefined;
  const renderGraphiQL = (graphiqlOptions: GraphiQLOptions): Promise<string> => {
    graphiqlPage ??= import("@graphql-yoga/render-graphiql").then(({ renderGraphiQL: render }) =>
      render(graphiqlOptions),
    );
    return graphiqlPage;
  };
  const schema = options.schema ?? buildSchema();
  const persisted = loadPersistedOperations(schema);
  const budget =
    options.clientBudget !== undefined &&
    (options.clientBudget.costPerSecond > 0 || options.clientBudget.concurrency > 0)
      ? options.clientBudget
      : undefined;
  const yoga = createYoga<NodeServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: { title: "swapgraph" },
    renderGraphiQL,
    landingPage: false,
    multipart: false,
    // The HTTP server applies one CORS policy to every path (any origin, no credentials); yoga's
    // own would echo the Origin and allow credentials.
    cors: false,
    // The HTTP server parses the body and enforces the limit (GRAPHQL_LIMITS.maxRequestBodySize);
    // yoga's own limit would pipe every body through a counting stream.
    maxRequestBodySize: false,
    // Parsed documents kept by bytes, not only by count (createDocumentCaches).
    parserAndValidationCache: createDocumentCaches(),
    logging: toYogaLogger(logger),
    // Never the development mode's extensions.originalError, whatever NODE_ENV says.
    maskedErrors: { maskError: (error, message) => toGraphqlError(error, message), isDev: false },
    context: () => createGraphqlContext(reader, { logger: baseLogger }),
    plugins: [
      // Apollo's protocol: `extensions.persistedQuery.sha256Hash` names a published operation
      // (validated when loaded), so clients send a hash instead of the document.
      // Its refusals are the caller's: 400 with the library's codes (default: 200).
      usePersistedOperations({
        getPersistedOperation: (id) => persisted.get(id)?.document ?? null,
        allowArbitraryOperations: options.persistedOperationsOnly !== true,
        skipDocumentValidation: true,
        customErrors: {
          notFound: persistedRefusal("PersistedQueryNotFound", "PERSISTED_QUERY_NOT_IN_LIST"),
          keyNotFound: persistedRefusal("PersistedQueryKeyNotFound", "PERSISTED_QUERY_ID_REQUIRED"),
          persistedQueryOnly: persistedRefusal("PersistedQueryOnly", "CANNOT_SEND_PQ_ID_AND_BODY"),
        },
      }),
      // Each limit refuses with HTTP 400 and its code (rejectAs), whatever the Accept header.
      maxTokensPlugin({
        n: GRAPHQL_LIMITS.maxTokens,
        propagateOnRejection: false,
        onReject: [rejectAs(TOKEN_LIMIT_CODE)],
      }),
      maxDepthPlugin({
        n: GRAPHQL_LIMITS.maxDepth,
        flattenFragments: true,
        propagateOnRejection: false,
        onReject: [rejectAs(DEPTH_LIMIT_CODE)],
      }),
      // `allowList: []`: aliases of __typename count too (armor leaves them out by default, and
      // 600 of them are 600 answers to render).
      maxAliasesPlugin({
        n: GRAPHQL_LIMITS.maxAliases,
        allowList: [],
        propagateOnRejection: false,
        onReject: [rejectAs(ALIAS_LIMIT_CODE)],
      }),
      useCostLimit({ maxCost: GRAPHQL_LIMITS.maxCost }),
      // After the cost limit: what it refuses is never charged.
      ...(budget === undefined ? [] : [useClientBudget(createClientBudget(budget))]),
      useQuietValidation(),
      useClientErrorLogging(logger),
      useKeepableAnswers(),
    ],
  });
  return Object.assign(yoga, { marketState: createMarketStateKey(reader) });
}
