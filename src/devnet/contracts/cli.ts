// `npm run contracts`: compiles every contract the devnet deploys and writes the committed
// artifacts in src/devnet/artifacts/ (only files whose text changed, so unchanged sources keep
// their modification time). `npm run contracts -- --check` only compares and exits 1 when stale.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileArtifacts, formatArtifact } from "./compileArtifacts.js";
import { findStaleArtifacts } from "./findStaleArtifacts.js";

const dir = fileURLToPath(new URL("../artifacts/", import.meta.url));
const started = performance.now();
const compiled = await compileArtifacts();
const ms = Math.round(performance.now() - started);

if (process.argv.includes("--check")) {
  const problems = findStaleArtifacts(compiled, dir);
  if (problems.length > 0) {
    process.stderr.write(
      `src/devnet/artifacts/ is stale: run \`npm run contracts\`\n  ${problems.join("\n  ")}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`src/devnet/artifacts/ matches a fresh compile (${ms} ms)\n`);
} else {
  mkdirSync(dir, { recursive: true });
  const written = new Set<string>();
  for (const [name, artifact] of Object.entries(compiled)) {
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
      `${file.padEnd(30)} ${String(Buffer.byteLength(text)).padStart(7)} bytes  ${state}\n`,
    );
  }
  for (const file of readdirSync(dir)) {
    if (file.endsWith(".json") && !written.has(file)) {
      rmSync(join(dir, file));
      process.stdout.write(`${file.padEnd(30)} removed\n`);
    }
  }
  process.stdout.write(`compiled in ${ms} ms\n`);
}
