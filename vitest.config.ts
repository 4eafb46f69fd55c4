import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // anvil chains and databases are shared per file; two cores means two files at once at most.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
