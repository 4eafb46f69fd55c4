import {
  type DocumentNode,
  type GraphQLSchema,
  getNamedType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";
import type { Plugin } from "graphql-yoga";

/** Set by useKeepableAnswers when an answer may be kept; the HTTP edge passes it in the server context. */
export interface AnswerVerdict {
  keepable: boolean;
}

// What depends on the clock more finely than the hour, or on the trade store beyond the 24-hour
// buckets: status and networkStatus (data age), swaps and liquidityEvents (a window that slides
// with time), dailyVolumes (today's running sum), candles (the current bucket grows, the default range slides),
// market stats (windows that end at the request's second).
const UNKEPT_FIELDS = new Set([
  "Query.status",
  "Query.networkStatus",
  "Query.swaps",
  "Query.poolSwaps",
  "Query.liquidityEvents",
  "Query.dailyVolumes",
  "Query.candles",
  "Token.stats",
  "Pool.stats",
]);
const UNKEPT_TYPES = new Set(["NetworkStatus"]);

/** True when every field the document selects is a function of the market state (createMarketStateKey). */
function isMarketQuery(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let market = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        if (node.operation !== "query") market = false;
      },
      Field(node) {
        const parent = typeInfo.getParentType();
        const type = typeInfo.getType();
        if (
          (parent !== null &&
            parent !== undefined &&
            UNKEPT_FIELDS.has(`${parent.name}.${node.name.value}`)) ||
          (type !== null && type !== undefined && UNKEPT_TYPES.has(getNamedType(type).name))
        ) {
          market = false;
        }
      },
    }),
  );
  return market && document.definitions.some((definition) => definition.kind === Kind.OPERATION_DEFINITION);
}

/**
 * Tells the HTTP edge which answers may be kept (in the server context's `verdict`): queries
 * whose every field is a function of the market state (quotes, token metadata and prices,
 * tokens and pools with their liquidity and 24-hour volumes), answered without errors. The edge
 * keeps their bytes keyed by the request and that state, so an answer never outlives the
 * indexed state and hour it came from; nothing is kept here.
 */
export function useKeepableAnswers(): Plugin {
  // Parsed documents are cached by yoga: the same query is judged once.
  const judged = new WeakMap<DocumentNode, boolean>();
  return {
    onExecute({ args }) {
      const verdict = (args.contextValue as { verdict?: AnswerVerdict }).verdict;
      if (verdict === undefined) return;
      let market = judged.get(args.document);
      if (market === undefined) {
        market = isMarketQuery(args.schema, args.document);
        judged.set(args.document, market);
      }
      if (!market) return;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          if (result.errors === undefined || result.errors.length === 0) verdict.keepable = true;
        },
      };
    },
  };
}
