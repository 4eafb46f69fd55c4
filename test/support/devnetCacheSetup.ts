import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's devnet cache dir (test/support/devnetCache.ts). */
    devnetCacheDir: string;
  }
}

/**
 * Global setup of the integration project: one fresh devnet cache dir per run, removed at its
 * end, so a cached devnet never outlives the run that built it (its history is anchored to then).
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "swapgraph-devnet-cache-"));
  project.provide("devnetCacheDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
