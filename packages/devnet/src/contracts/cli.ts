// `npm run contracts`: compiles every contract the devnet deploys or production code runs and
// writes the committed artifacts in packages/devnet/src/artifacts/ and src/chain/artifacts/ (only files
// whose text changed, so unchanged sources keep their modification time).
// `npm run contracts -- --check` only compares and exits 1 when stale.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DevnetArtifact } from "../deploy/readArtifact.js";
import { compileArtifacts, formatArtifact } from "./compileArtifacts.js";
import { findStaleArtifacts } from "./findStaleArtifacts.js";

const started = performance.now();
const compiled = await compileArtifacts();
const ms = Math.round(performance.now() - started);
const sets: { label: string; dir: string; artifacts: Readonly<Record<string, DevnetArtifact>> }[] = [
  {
    label: "packages/devnet/src/artifacts/",
    dir: fileURLToPath(new URL("../artifacts/", import.meta.url)),
    artifacts: compiled.devnet,
  },
  {
    label: "src/chain/artifacts/",
    dir: fileURLToPath(new URL("../../../../src/chain/artifacts/", import.meta.url)),
    artifacts: compiled.chain,
  },
];

if (process.argv.includes("--check")) {
  let stale = false;
  for (const { label, dir, artifacts } of sets) {
    const problems = findStaleArtifacts(artifacts, dir);
    if (problems.length > 0) {
      stale = true;
      process.stderr.write(`${label} is stale: run \`npm run contracts\`\n  ${problems.join("\n  ")}\n`);
    } else {
      process.stdout.write(`${label} matches a fresh compile (${ms} ms)\n`);
    }
  }
  if (stale) process.exit(1);
} else {
  for (const { label, dir, artifacts } of sets) {
    process.stdout.write(`${label}\n`);
    mkdirSync(dir, { recursive: true });
    const written = new Set<string>();
    for (const [name, artifact] of Object.entries(artifacts)) {
      const file = `${name}.json`;
      const text = formatArtifact(artifact);
      written.add(file);
      let current: string | undefined;
      try {
        current = readFileSync(join(dir, file), "utf8");
      } catch {
        current = undefined;
      }
      if (current !== text) writeFileSync(join(dir, file), text);
      const state = current === text ? "unchanged" : current === undefined ? "new" : "updated";
      process.stdout.write(
        `  ${file.padEnd(30)} ${String(Buffer.byteLength(text)).padStart(7)} bytes  ${state}\n`,
      );
    }
    for (const file of readdirSync(dir)) {
      if (file.endsWith(".json") && !written.has(file)) {
        rmSync(join(dir, file));
        process.stdout.write(`  ${file.padEnd(30)} removed\n`);
      }
    }
  }
  process.stdout.write(`compiled in ${ms} ms\n`);
}
