// `npm start`: the production build (dist/, made by `npm run build`) when it is there and not
// older than src/; otherwise the TypeScript sources through tsx, as in development. One process
// either way: signals reach swapgraph itself. The dashboard (web/dist/) is built first when it is
// missing and Vite is installed (scripts/buildDashboard.mjs; a production install has no Vite and
// `/` then says how to build it).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("..", import.meta.url);
const built = new URL("dist/start.js", root);
const sources = new URL("src/", root);

/** The newest modification time of the files under `dir`. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return latest;
}

const dashboardBuilder = new URL("scripts/buildDashboard.mjs", root);
if (!existsSync(new URL("web/dist/index.html", root)) && existsSync(dashboardBuilder)) {
  // Its own process: Vite is not loaded into the server's. A failed build leaves `/` saying so.
  spawnSync(process.execPath, [fileURLToPath(dashboardBuilder), "--if-missing"], { stdio: ["ignore", 2, 2] });
}

const hasBuild = existsSync(built);
const stale = hasBuild && existsSync(sources) && newest(sources) > statSync(built).mtimeMs;
if (hasBuild && !stale) {
  process.setSourceMapsEnabled(true);
  await import(built.href);
} else if (!existsSync(sources)) {
  process.stderr.write(
    "swapgraph failed to start: neither dist/start.js nor src/ is here: run `npm run build`\n",
  );
  process.exit(1);
} else {
  if (stale)
    process.stderr.write("dist/ is older than src/: running src/ with tsx (`npm run build` updates dist/)\n");
  await import("tsx");
  await import(new URL("src/start.ts", root).href);
}
