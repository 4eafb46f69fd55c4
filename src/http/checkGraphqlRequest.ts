import { BadRequestError } from "../errors.js";

/**
 * Bounds on the JSON a GraphQL request carries in `variables` and `extensions`. The schema's
 * arguments are all scalars, so real variables are one level deep; the bounds leave room for
 * clients that send a little more, and stop what would only cost the server (a 45,000-deep
 * nesting overflows the stack of every recursive walk, graphql-js's coercion included).
 * @internal exported for tests, which pin these limits.
 */
export const GRAPHQL_JSON_LIMITS = {
  /** Objects and arrays inside one another, the outer object counting as 1. */
  maxDepth: 8,
  /** Values (objects, arrays, scalars) in all, the outer object included. */
  maxValues: 1_000,
} as const;

/** What a GraphQL request carries, as the HTTP edge received it. */
export interface GraphqlRequestParts {
  method: string;
  /** Fastify's parsed body (POST): anything JSON can be, or undefined without a body. */
  body: unknown;
  /** The parsed query string (GET): values are strings, or lists when repeated. */
  query: unknown;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * Walks `value` without recursion (a deep value cannot overflow the stack here) and says what
 * is wrong with its size, or undefined.
 */
function measureJson(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (++values > GRAPHQL_JSON_LIMITS.maxValues) {
      return `hold more than ${GRAPHQL_JSON_LIMITS.maxValues} values`;
    }
    if (item === null || typeof item !== "object") continue;
    if (depth > GRAPHQL_JSON_LIMITS.maxDepth) {
      return `are nested more than ${GRAPHQL_JSON_LIMITS.maxDepth} levels deep`;
    }
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return undefined;
}

// A JSON object field of the request: absent or null, or an object within the bounds.
function checkObjectField(name: "variables" | "extensions", value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new BadRequestError(`GraphQL "${name}" must be a JSON object; got ${kindOf(value)}.`);
  }
  const wrong = measureJson(value);
  if (wrong !== undefined) throw new BadRequestError(`GraphQL "${name}" ${wrong}.`);
}

// A query-string parameter that holds JSON (GET): parsed here so its shape is checked too.
function parseJsonParam(name: "variables" | "extensions", raw: unknown): unknown {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string") throw new BadRequestError(`GraphQL "${name}" may be given once.`);
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new BadRequestError(`GraphQL "${name}" is not valid JSON.`);
  }
}

function hasPersistedId(extensions: unknown): boolean {
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)
    ?.persistedQuery;
  return typeof persisted?.sha256Hash === "string";
}

/**
 * Checks a GraphQL request before yoga sees it, so that every shape of body gets a JSON 400
 * (BadRequestError) and none reaches the engine: a POST body must be a JSON object with a
 * `query` string or a persisted operation's id (`extensions.persistedQuery.sha256Hash`);
 * `variables` and `extensions` must be objects within GRAPHQL_JSON_LIMITS;
 * `operationName` a string. A GET is checked the same way when it names a query; without one it
 * is left to yoga (GraphiQL, or yoga's own 400).
 */
export function checkGraphqlRequest(request: GraphqlRequestParts): void {
  if (request.method === "GET" || request.method === "HEAD") {
    const params = (request.query ?? {}) as Record<string, unknown>;
    if (params.query !== undefined && typeof params.query !== "string") {
      throw new BadRequestError('GraphQL "query" may be given once.');
    }
    checkObjectField("variables", parseJsonParam("variables", params.variables));
    checkObjectField("extensions", parseJsonParam("extensions", params.extensions));
    return;
  }
  const body = request.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new BadRequestError(
      `A GraphQL request body must be a JSON object with a "query" string; got ${body === undefined ? "no body" : kindOf(body)}.`,
    );
  }
  const { query, variables, extensions, operationName } = body as Record<string, unknown>;
  checkObjectField("extensions", extensions);
  if (query === undefined || query === null) {
    if (!hasPersistedId(extensions)) {
      throw new BadRequestError(
        'A GraphQL request body must be a JSON object with a "query" string (or a persisted operation\'s extensions.persistedQuery.sha256Hash).',
      );
    }
  } else if (typeof query !== "string") {
    throw new BadRequestError(`GraphQL "query" must be a string; got ${kindOf(query)}.`);
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    throw new BadRequestError(`GraphQL "operationName" must be a string; got ${kindOf(operationName)}.`);
  }
  checkObjectField("variables", variables);
}
