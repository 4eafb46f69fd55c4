import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module). Node loads the CJS one for every package
    // (yoga, @graphql-tools), but vite would hand our own files the ESM one: two graphql
    // modules, and schemas break ("Cannot use GraphQLEnumType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // anvil chains and databases are shared per file, never across files: several files revert
    // and replace chain history (reorg tests). Two cores means two files at once at most.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
