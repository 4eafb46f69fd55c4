// `npm run build`: TypeScript to JavaScript in dist/ (tsconfig.build.json), plus the files the code
// reads next to itself (the devnet's contract artifacts). dist/ mirrors src/, so paths the code
// resolves from its own location (../../schema/, ../../package.json) hold for both.
// src/devnet/contracts/ (Solidity sources and the `npm run contracts` compiler) is development only.
// Then the dashboard (web/ -> web/dist/, scripts/buildDashboard.mjs), which the server finds from
// its own location (dist/http/plugins/ -> ../../../web/dist/): beside the output's parent, web/dist/ by default.
// `--out-dir <dir>` builds elsewhere (the build test does). `--no-check` emits without type
// checking (tsc --noCheck): the same output in about half the time; the build test uses it, as
// `npm run check` type-checks the same sources.
import { spawnSync } from "node:child_process";
import { cpSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDashboard } from "./buildDashboard.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const flag = process.argv.indexOf("--out-dir");
const outDir = resolve(flag >= 0 ? process.argv[flag + 1] : join(root, "dist"));

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const compiled = spawnSync(
  process.execPath,
  [
    tsc,
    "-p",
    join(root, "tsconfig.build.json"),
    "--outDir",
    outDir,
    ...(process.argv.includes("--no-check") ? ["--noCheck"] : []),
  ],
  {
    stdio: "inherit",
  },
);
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
const devOnly = join(root, "src", "devnet", "contracts");
cpSync(join(root, "src"), outDir, {
  recursive: true,
  filter: (source) => source !== devOnly && (statSync(source).isDirectory() || !source.endsWith(".ts")),
});
process.stdout.write(`built ${outDir}\n`);
if (!process.argv.includes("--no-dashboard")) {
  const dashboard = await buildDashboard({ outDir: join(outDir, "..", "web", "dist"), quiet: true });
  process.stdout.write(`built ${dashboard}\n`);
}
