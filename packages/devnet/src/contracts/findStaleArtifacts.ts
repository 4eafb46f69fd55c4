import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DevnetArtifact } from "../deploy/readArtifact.js";
import { formatArtifact } from "./compileArtifacts.js";

/**
 * Compares the artifact files in `dir` byte for byte with freshly compiled ones: one line per
 * file that is missing, differs or is not produced by the compile (none when all is current).
 */
export function findStaleArtifacts(
  compiled: Readonly<Record<string, DevnetArtifact>>,
  dir: string,
): string[] {
  const problems: string[] = [];
  const expected = new Set<string>();
  for (const [name, artifact] of Object.entries(compiled)) {
    const file = `${name}.json`;
    expected.add(file);
    let text: string;
    try {
      text = readFileSync(join(dir, file), "utf8");
    } catch {
      problems.push(`${file} is missing`);
      continue;
    }
    if (text === formatArtifact(artifact)) continue;
    let committedHash: unknown;
    try {
      committedHash = (JSON.parse(text) as Partial<DevnetArtifact>).sourceHash;
    } catch {
      // Not JSON at all: reported as a plain difference.
    }
    problems.push(
      committedHash === artifact.sourceHash
        ? `${file} differs from a fresh compile of the same sources (compiler, settings or hand edit)`
        : `${file} differs from a fresh compile: its sources changed`,
    );
  }
  for (const file of readdirSync(dir)) {
    if (file.endsWith(".json") && !expected.has(file))
      problems.push(`${file} is not produced by the compile`);
  }
  return problems;
}
