import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";
const require = createRequire(import.meta.url);
export default defineConfig({
  root: "/work/main",
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve("/work/main/node_modules/graphql") }] },
  test: { include: ["test/**/*.test.ts"], pool: "forks", maxWorkers: 2, testTimeout: 60_000 },
});
