import { inlineRefs, loadOpenApi } from "../../src/http/openapi/loadOpenApi.js";

/** A schema of schema/openapi.yaml's components with every $ref inlined: a JSON Schema on its own. */
export function openApiSchema(name: string): { properties?: Record<string, unknown>; required?: string[] } {
  const document = loadOpenApi();
  const schema = document.components.schemas?.[name];
  if (schema === undefined) throw new Error(`schema/openapi.yaml has no schema ${name}.`);
  return inlineRefs(document, schema) as { properties?: Record<string, unknown>; required?: string[] };
}

/** The example of the 200 of GET `path` ("/dexscreener/{network}/pair") in schema/openapi.yaml. */
export function openApiExample(path: string): unknown {
  const response = loadOpenApi().paths[path]?.get.responses["200"] as
    | { content: Record<string, { example?: unknown }> }
    | undefined;
  const example = Object.values(response?.content ?? {})[0]?.example;
  if (example === undefined) throw new Error(`schema/openapi.yaml has no example of GET ${path}.`);
  return example;
}
