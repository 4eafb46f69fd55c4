import { resolve } from "node:path";
import { compileChainCaseContracts } from "../../src/devnet/compileChainCaseContracts.js";
import { compileContracts } from "../../src/devnet/compileContracts.js";

/**
 * Runs once before any test file: compiles the devnet contracts into the cache every devnet of
 * the run reads (vitest.config.ts points SWAPGRAPH_DEVNET_CACHE at it), so solc runs once per
 * run instead of once per test file.
 */
export async function setup(): Promise<void> {
  const cacheDir = process.env.SWAPGRAPH_DEVNET_CACHE;
  if (cacheDir === undefined) throw new Error("vitest.config.ts must set SWAPGRAPH_DEVNET_CACHE");
  await compileContracts({ cacheDir: resolve(cacheDir) });
  await compileChainCaseContracts({ cacheDir: resolve(cacheDir) });
}
