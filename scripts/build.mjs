// `npm run build`: the type check (tsc, tsconfig.build.json), then src/start.ts and everything it
// imports, node_modules included, bundled by esbuild into dist/start.js and the chunks its dynamic
// imports load (GraphiQL's page): one file to load and compile instead of about 1,070 ES modules
// and the CommonJS ones, which was most of the start's time (docs/benchmarks.md, Start). Native
// and optional packages stay in node_modules, and so do tsx and the devnet (packages/devnet, the
// embedded demo's chains: a workspace package tsx loads, never part of dist/). Plus the files the
// code reads next to itself (src/chain/artifacts/), copied to the same places under dist/ as under
// src/, and the REST contract as dist/openapi.json. Each source file's `import.meta.url` is rewritten to the URL of its place in that mirror,
// so the paths the code resolves from its own location (../../schema/, ../../package.json) hold for both.
// Then the dashboard (web/ -> web/dist/, scripts/buildDashboard.mjs), which the server finds from
// its own location (dist/http/plugins/ -> ../../../web/dist/): beside the output's parent, web/dist/ by default.
// `--out-dir <dir>` builds elsewhere (the build test does). `--no-check` emits without type
// checking (tsc --noCheck): the same output in about half the time; the build test uses it, as
// `npm run check` type-checks the same sources.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildDashboard } from "./buildDashboard.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const flag = process.argv.indexOf("--out-dir");
const outDir = resolve(flag >= 0 ? process.argv[flag + 1] : join(root, "dist"));

const sources = join(root, "src");
rmSync(outDir, { recursive: true, force: true });
if (!process.argv.includes("--no-check")) {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const checked = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--noEmit"], {
    stdio: "inherit",
  });
  if (checked.status !== 0) process.exit(checked.status ?? 1);
}
// esbuild: a dev dependency at the version tsx and vite pin (one copy installed).
const { build } = await import("esbuild");
await build({
  entryPoints: [join(sources, "start.ts")],
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Chunks beside start.js: the rewritten import.meta.url below is relative to dist/ itself.
  chunkNames: "[name]-[hash]",
  sourcemap: "linked",
  // Mappings only: stack traces still name src/ files and lines, and the map stays small.
  sourcesContent: false,
  // A native addon (found through its own path) and ws's optional native helpers; tsx (esbuild's
  // binary beside it) and the devnet it loads for the embedded demo (src/loadDevnet.ts).
  external: ["better-sqlite3", "bufferutil", "utf-8-validate", "tsx", "@swapgraph/devnet"],
  // The CommonJS packages in an ES module bundle require Node's built-ins.
  banner: {
    js: 'import { createRequire as createRequireOfBundle } from "node:module";\nconst require = createRequireOfBundle(import.meta.url);',
  },
  logLevel: "warning",
  plugins: [
    {
      name: "own-location",
      setup(bundler) {
        bundler.onLoad({ filter: /\.ts$/ }, async (args) => {
          const text = await readFile(args.path, "utf8");
          if (!args.path.startsWith(sources + "/")) return { contents: text, loader: "ts" };
          const place = `./${relative(sources, args.path).replace(/\.ts$/, ".js")}`;
          const url = `new URL(${JSON.stringify(place)}, import.meta.url).href`;
          return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
        });
      },
    },
  ],
});
cpSync(sources, outDir, {
  recursive: true,
  filter: (source) => statSync(source).isDirectory() || !source.endsWith(".ts"),
});
// The REST contract (schema/openapi.yaml) as JSON beside the bundle, where
// src/http/openapi/loadOpenApi.ts looks first: production parses no YAML and loads no parser.
const { parse } = await import("yaml");
const contract = parse(readFileSync(join(root, "schema", "openapi.yaml"), "utf8"));
writeFileSync(join(outDir, "openapi.json"), JSON.stringify(contract));
process.stdout.write(`built ${outDir}\n`);
if (!process.argv.includes("--no-dashboard")) {
  const dashboard = await buildDashboard({ outDir: join(outDir, "..", "web", "dist"), quiet: true });
  process.stdout.write(`built ${dashboard}\n`);
}
