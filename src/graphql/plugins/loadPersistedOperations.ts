import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type GraphQLSchema, parse, validate } from "graphql";

/**
 * Where the published operations live: one `.graphql` file per operation.
 * @internal exported for tests, which read the operations it holds.
 */
export const OPERATIONS_DIR = fileURLToPath(new URL("../../../schema/operations/", import.meta.url));

/** A published operation: its name, its text and the id clients send instead of the text. */
export interface PersistedOperation {
  name: string;
  /** sha256 of the file's text, hex: Apollo's `extensions.persistedQuery.sha256Hash`. */
  id: string;
  document: string;
}

/**
 * Reads the published operations (schema/operations/*.graphql) and checks each against the
 * schema, so a persisted id always names a valid operation (the server skips validating it
 * per request). Throws naming the file when one is invalid.
 */
export function loadPersistedOperations(
  schema: GraphQLSchema,
  dir: string = OPERATIONS_DIR,
): ReadonlyMap<string, PersistedOperation> {
  const operations = new Map<string, PersistedOperation>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith(".graphql"))
    .sort()) {
    const document = readFileSync(join(dir, file), "utf8");
    const errors = validate(schema, parse(document));
    if (errors.length > 0) {
      throw new Error(`Persisted operation ${file} is not valid: ${errors.map((e) => e.message).join("; ")}`);
    }
    const id = createHash("sha256").update(document).digest("hex");
    operations.set(id, { name: file.replace(/\.graphql$/, ""), id, document });
  }
  return operations;
}
