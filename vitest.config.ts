import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

/**
 * The unit project: files that run no chain, open no socket and load no database driver
 * (test/support/unitGuard.ts makes those throw there). `npm run test:unit` runs them alone, the
 * edit-test loop; a file that needs any of those belongs to the integration project (the default
 * for every file not listed here).
 */
const UNIT_FILES = [
  "test/architecture/imports.test.ts",
  "test/architecture/size.test.ts",
  "test/bench/summarizeRounds.test.ts",
  "test/chain/buildPairCheckRead.test.ts",
  "test/chain/buildTokenMetadataRead.test.ts",
  "test/chain/classifyRpcError.test.ts",
  "test/chain/cleanTokenText.test.ts",
  "test/chain/decodeCappedMulticall.test.ts",
  "test/chain/recordUrlFailure.test.ts",
  "test/chain/summarizeFailure.test.ts",
  "test/config/dexPresets.test.ts",
  "test/config/expandDexPreset.test.ts",
  "test/config/loadConfig.test.ts",
  "test/config/redactSecrets.test.ts",
  "test/createLogger.test.ts",
  "test/deploy/compose.test.ts",
  "test/devnet/productContract.test.ts",
  "test/devnet/v3Math.test.ts",
  "test/docs/paths.test.ts",
  "test/errors.test.ts",
  "test/graphql/documentCaches.test.ts",
  "test/graphql/formatDecimal.test.ts",
  "test/graphql/liquidityEventCursor.test.ts",
  "test/graphql/marketStatsFormat.test.ts",
  "test/graphql/marketStatsReads.test.ts",
  "test/graphql/reserveCost.test.ts",
  "test/graphql/schema.test.ts",
  "test/graphql/swapCursor.test.ts",
  "test/http/createAnswerStore.test.ts",
  "test/http/createSwapRowRenderer.test.ts",
  "test/http/specShape.test.ts",
  "test/indexer/buildTrade.test.ts",
  "test/indexer/createTokenLookup.test.ts",
  "test/indexer/groupSwapChains.test.ts",
  "test/indexer/matchNativeSides.test.ts",
  "test/lib/mapWithConcurrency.test.ts",
  "test/pricing/createRouteCache.test.ts",
  "test/pricing/findBestRoute.test.ts",
  "test/pricing/findQuoteRoutes.test.ts",
  "test/pricing/getAmountOut.test.ts",
  "test/pricing/poolAmountOut.test.ts",
  "test/pricing/usdPricing.test.ts",
  "test/pricing/v3/v3Math.test.ts",
  "test/store/hopZeroForOne.test.ts",
  "test/web/format.test.ts",
];

/**
 * Integration files that must not share a module cache with others: they replace a module with
 * vi.mock (the integration project keeps its modules between files, below).
 */
const ISOLATED_FILES = ["test/graphql/clientBudget.test.ts"];

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module). Node loads the CJS one for every package
    // (yoga, @graphql-tools), but vite would hand our own files the ESM one: two graphql
    // modules, and schemas break ("Cannot use GraphQLEnumType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    // anvil chains and databases are shared per file, never across files: several files revert
    // and replace chain history (reorg tests). Two cores means two files at once at most.
    pool: "forks",
    maxWorkers: 2,
    // Bounds, not speeds: a test that takes 10 s on a quiet machine takes 30-60 s with CPU hogs on
    // both cores (npm run test:stress); waits inside tests have bounds of their own.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT_FILES,
          setupFiles: ["test/support/unitGuard.ts"],
          // Pure files: worker threads that keep their module cache between files. Most of a
          // unit file's time was importing (a fresh process per file); measured in docs/development.md.
          pool: "threads",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...UNIT_FILES, ...ISOLATED_FILES],
          // Each worker process keeps its module cache from file to file: importing viem, fastify,
          // yoga and the product anew for each file cost ~1 s of CPU a file (40 files: 82 s -> 48 s
          // wall, 73 s -> 36 s CPU; docs/development.md). Chains, stores and servers are still
          // each file's own; process-wide registries a file relies on are cleared by that file.
          isolate: false,
          // One devnet cache per run: a devnet is built once and loaded by every file that asks
          // for the same options (test/support/devnetCache.ts).
          globalSetup: ["test/support/devnetCacheSetup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ISOLATED_FILES,
          globalSetup: ["test/support/devnetCacheSetup.ts"],
        },
      },
    ],
  },
});
