import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A GET operation of the document: what the routes and the docs read of it. */
interface OpenApiOperation {
  operationId: string;
  parameters?: unknown[];
  responses: Record<string, unknown>;
}

/** The OpenAPI 3.1 document of schema/openapi.yaml, as plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, { get: OpenApiOperation }>;
  components: Record<string, Record<string, unknown>>;
}

// The REST contract, written as YAML for its descriptions. The build (scripts/build.mjs) writes it
// as JSON beside the bundle, dist/openapi.json, so production parses no YAML and loads no parser.
const SOURCE = new URL("../../../schema/openapi.yaml", import.meta.url);
const BUILT = new URL("../../openapi.json", import.meta.url);
const PARSE_CACHE = new URL("../../../node_modules/.cache/swapgraph/", import.meta.url);

let loaded: OpenApiDocument | undefined;

/** The REST contract, schema/openapi.yaml (read once per process; callers must not change it). */
export function loadOpenApi(): OpenApiDocument {
  if (loaded !== undefined) return loaded;
  if (existsSync(BUILT)) {
    loaded = JSON.parse(readFileSync(BUILT, "utf8")) as OpenApiDocument;
  } else {
    loaded = readOpenApiSource();
  }
  return loaded;
}

/**
 * The document from the sources (tsx, every test file). Parsing the YAML costs 0.1-0.5 s, so the
 * parse is kept as JSON in node_modules/.cache under a hash of the text: each edit of the YAML is
 * parsed once. The cache is best effort (a read-only tree parses every time).
 * @internal exported for its test, which gives its own `cacheDir`.
 */
export function readOpenApiSource(cacheDir: URL = PARSE_CACHE): OpenApiDocument {
  const text = readFileSync(SOURCE, "utf8");
  const cached = new URL(
    `openapi-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`,
    cacheDir,
  );
  try {
    return JSON.parse(readFileSync(cached, "utf8")) as OpenApiDocument;
  } catch {
    // Not parsed yet (or a torn file from elsewhere): parse below.
  }
  // A development dependency, required only when running from the sources (never in dist/).
  const { parse } = createRequire(import.meta.url)("yaml") as { parse: (text: string) => unknown };
  const document = parse(text) as OpenApiDocument;
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Written whole, then renamed: test files starting at once never read half a file.
    const partial = new URL(`${cached.href}.${process.pid}`);
    writeFileSync(partial, JSON.stringify(document));
    renameSync(partial, cached);
  } catch {
    // No cache: the next start parses again.
  }
  return document;
}

/** The value a local JSON pointer ("#/components/schemas/Swap") names in `document`. */
function resolvePointer(document: unknown, ref: string): unknown {
  const value = ref
    .slice(2)
    .split("/")
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
  if (value === undefined) throw new Error(`${ref} names nothing in schema/openapi.yaml.`);
  return value;
}

/**
 * `node` with every $ref replaced by what it names, its siblings kept (the document has no
 * cycles): a JSON Schema any validator reads, whatever its draft.
 */
export function inlineRefs(document: unknown, node: unknown): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => inlineRefs(document, item));
  const { $ref, ...rest } = node as Record<string, unknown>;
  const base =
    typeof $ref === "string" ? (inlineRefs(document, resolvePointer(document, $ref)) as object) : {};
  return {
    ...base,
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlineRefs(document, value)])),
  };
}
