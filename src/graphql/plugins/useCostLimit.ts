import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { getOperationCost } from "./getOperationCost.js";

/** The extensions.code of a refused operation. */
const COST_LIMIT_CODE = "COST_LIMIT";

/** Options of useCostLimit. */
export interface CostLimitOptions {
  maxCost: number;
}

/**
 * Refuses an operation whose cost (computeQueryCost, on the coerced variables) exceeds
 * `maxCost` before any resolver runs: a GraphQL error with extensions.code COST_LIMIT and
 * HTTP 400 (useClientErrorLogging logs it). Pricing at execution rather than validation is what
 * counts `first: $n`; the price is kept for the client budget (getOperationCost).
 */
export function useCostLimit(options: CostLimitOptions): Plugin {
  const { maxCost } = options;
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = getOperationCost(args);
      if (cost === undefined || cost <= maxCost) return;
      const rounded = Math.ceil(cost);
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            `Query cost ${rounded} exceeds the limit of ${maxCost}: ask for fewer items (first, days), fewer fields or fewer aliases.`,
            { extensions: { code: COST_LIMIT_CODE, http: { status: 400 }, cost: rounded, maxCost } },
          ),
        ],
      });
    },
  };
}
