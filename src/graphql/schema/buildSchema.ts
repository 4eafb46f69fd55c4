import { readdirSync, readFileSync } from "node:fs";
import { makeExecutableSchema } from "@graphql-tools/schema";
import type { GraphQLSchema } from "graphql";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { resolvers } from "./resolvers.js";

const SCHEMA_DIR = new URL("../../../schema/", import.meta.url);

/** The SDL of schema/*.graphql, the API's source of truth, in file-name order. */
function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith(".graphql"))
    .sort()
    .map((name) => readFileSync(new URL(name, SCHEMA_DIR), "utf8"));
}

/** Builds the executable schema: schema/*.graphql with the resolvers. Build once per process. */
export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema<GraphqlContext>({ typeDefs: loadTypeDefs(), resolvers });
}
