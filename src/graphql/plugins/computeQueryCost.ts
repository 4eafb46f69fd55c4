import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  typeFromAST,
} from "graphql";

/** Weights of the cost formula (the same as GraphQL Armor's cost limit, so limits keep their size). */
const OBJECT_COST = 2;
const SCALAR_COST = 1;
const DEPTH_FACTOR = 1.5;

/**
 * The argument that sets how many items a field returns, per field coordinate. Other list
 * fields are bounded by configuration (networks, route hops), not by the caller.
 */
const PAGE_SIZE_ARGUMENTS: Readonly<Record<string, string>> = {
  "Query.swaps": "first",
  "Query.poolSwaps": "first",
  "Query.liquidityEvents": "first",
  "Query.dailyVolumes": "days",
  "Query.candles": "first",
  "Query.tokens": "first",
  "Query.pools": "first",
  "Pool.orderBook": "levels",
};

/**
 * Fields that read the trade store per parent on top of their shape (market stats: an aggregate
 * over a window of trades, shared only by the requests of one second; a pool's 24-hour price
 * change: two price look-ups; its last trade price: one): their own cost, added to
 * the object cost and multiplied like it by the page sizes above them.
 */
const READ_COSTS: Readonly<Record<string, number>> = {
  "Token.stats": 200,
  "Pool.stats": 200,
  "Pool.priceChangePercentage24h": 10,
  "Pool.lastTradePrice": 5,
};

/**
 * The cost of an operation with its variable values coerced (defaults applied): an object
 * field costs 2 (plus its READ_COSTS) plus 1.5 x each child, a scalar 1, and a field's whole cost is multiplied by
 * its page size (`swaps(first:)`, `liquidityEvents(first:)`, `candles(first:)`, `tokens(first:)`,
 * `pools(first:)`, `dailyVolumes(days:)`), whether given literally, as a variable or by default.
 * Fragments count where they are spread; skipped fields count 0.
 * Undefined when the operation cannot be found or its variables do not coerce: execution then
 * fails with its own error before any resolver runs.
 */
export function computeQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Readonly<Record<string, unknown>> | null | undefined,
  operationName?: string | null,
): number | undefined {
  const operation = getOperationAST(document, operationName);
  if (operation === null || operation === undefined) return undefined;
  const root = schema.getRootType(operation.operation);
  if (root === undefined || root === null) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors !== undefined) return undefined;
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // A fragment spread many times (or nested spreads of spreads) is priced once.
  const fragmentCosts = new Map<string, number>();

  function isSkipped(node: Parameters<typeof getDirectiveValues>[1]): boolean {
    if (node.directives === undefined || node.directives.length === 0) return false;
    const skip = getDirectiveValues(GraphQLSkipDirective, node, variables);
    if (skip?.if === true) return true;
    const include = getDirectiveValues(GraphQLIncludeDirective, node, variables);
    return include?.if === false;
  }

  // The summed children of a selection set (each already weighted by the depth factor).
  function selectionCost(parent: GraphQLNamedType, selectionSet: SelectionSetNode): number {
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (isSkipped(selection)) continue;
      switch (selection.kind) {
        case Kind.FIELD:
          cost += DEPTH_FACTOR * fieldCost(parent, selection);
          break;
        case Kind.INLINE_FRAGMENT: {
          const condition = selection.typeCondition;
          const type = condition === undefined ? parent : typeFromAST(schema, condition);
          if (type !== undefined) cost += selectionCost(type, selection.selectionSet);
          break;
        }
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          let known = fragmentCosts.get(name);
          if (known === undefined) {
            const fragment = fragments.get(name);
            const type = fragment === undefined ? undefined : typeFromAST(schema, fragment.typeCondition);
            // Validation forbids fragment cycles; the 0 placeholder only guards against one anyway.
            fragmentCosts.set(name, 0);
            known =
              fragment === undefined || type === undefined ? 0 : selectionCost(type, fragment.selectionSet);
            fragmentCosts.set(name, known);
          }
          cost += known;
          break;
        }
        default: {
          const unreachable: never = selection;
          return unreachable;
        }
      }
    }
    return cost;
  }

  function fieldCost(parent: GraphQLNamedType, node: FieldNode): number {
    const name = node.name.value;
    // Introspection is bounded by the schema's size, and GraphiQL needs it.
    if (name === "__schema" || name === "__type") return 0;
    // A scalar that reads the store (READ_COSTS) costs its read too.
    if (node.selectionSet === undefined) return SCALAR_COST + (READ_COSTS[`${parent.name}.${name}`] ?? 0);
    const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
    if (field === undefined) return OBJECT_COST;
    const type = getNamedType(field.type);
    const children = isLeafType(type) ? 0 : selectionCost(type, node.selectionSet);
    const coordinate = `${parent.name}.${name}`;
    return (OBJECT_COST + (READ_COSTS[coordinate] ?? 0) + children) * pageSize(coordinate, field, node);
  }

  function pageSize(
    coordinate: string,
    field: Parameters<typeof getArgumentValues>[0],
    node: FieldNode,
  ): number {
    const argument = PAGE_SIZE_ARGUMENTS[coordinate];
    if (argument === undefined) return 1;
    let value: unknown;
    try {
      value = getArgumentValues(field, node, variables)[argument];
    } catch {
      // A bad argument fails execution on its own before any read; price it as one item.
      return 1;
    }
    return typeof value === "number" && Number.isFinite(value) && value > 1 ? value : 1;
  }

  return selectionCost(root, operation.selectionSet) / DEPTH_FACTOR;
}
