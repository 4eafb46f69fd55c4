import type { ExecutionArgs } from "graphql";
import { computeQueryCost } from "./computeQueryCost.js";

// Keyed by the arguments object envelop hands to every plugin's onExecute (or onSubscribe) of
// one operation: the cost limit and the client budget price it once between them.
const costs = new WeakMap<ExecutionArgs, number | undefined>();

/**
 * The cost of the operation being executed (computeQueryCost on its coerced variables),
 * computed once per execution however many plugins ask; undefined as computeQueryCost says.
 */
export function getOperationCost(args: ExecutionArgs): number | undefined {
  if (costs.has(args)) return costs.get(args);
  const cost = computeQueryCost(args.schema, args.document, args.variableValues, args.operationName);
  costs.set(args, cost);
  return cost;
}
