import { inlineRefs, loadOpenApi } from "./loadOpenApi.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's operation in schema/openapi.yaml (absent: not described there). */
    operationId?: string;
  }
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: object;
}

/** The parameters `in` one place as one object schema, in the document's order (none: undefined). */
function objectSchema(parameters: Parameter[], place: "path" | "query") {
  const mine = parameters.filter((parameter) => parameter.in === place);
  if (mine.length === 0) return undefined;
  return {
    type: "object",
    properties: Object.fromEntries(mine.map(({ name, schema }) => [name, schema])),
    required: mine.filter((parameter) => parameter.required === true).map(({ name }) => name),
  };
}

/**
 * The route options of the GET operation `operationId` of schema/openapi.yaml: the JSON Schemas
 * of its path and query parameters, which the framework validates requests with, and the
 * operationId, by which the docs check that the document and the routes name the same paths.
 */
export function documentedRoute(operationId: string) {
  const document = loadOpenApi();
  const operation = Object.values(document.paths).find((item) => item.get.operationId === operationId)?.get;
  if (operation === undefined) throw new Error(`schema/openapi.yaml has no operation ${operationId}.`);
  const parameters = inlineRefs(document, operation.parameters ?? []) as Parameter[];
  const params = objectSchema(parameters, "path");
  const querystring = objectSchema(parameters, "query");
  return {
    schema: {
      ...(params === undefined ? {} : { params }),
      ...(querystring === undefined ? {} : { querystring }),
    },
    config: { operationId },
  };
}
