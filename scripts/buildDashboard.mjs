// The dashboard served at `/`: web/ (TypeScript, uPlot) built by Vite into web/dist/, hashed
// asset names under assets/, relative URLs (base "./"). Run by `npm install`/`npm ci` (prepare),
// `npm run build`, and `npm start` when web/dist/ is missing. Vite is a devDependency: in a
// production install (--omit=dev) there is nothing to build with, which is not an error here
// (the server then answers `/` with a page that says how to build it).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** web/, the dashboard's sources. */
export const WEB_DIR = fileURLToPath(new URL("../web/", import.meta.url));
/** Where the server looks for the built dashboard by default. */
export const DASHBOARD_DIR = fileURLToPath(new URL("../web/dist/", import.meta.url));

/** Whether Vite is installed (it is not in a production install). */
export async function viteAvailable() {
  try {
    await import("vite");
    return true;
  } catch {
    return false;
  }
}

/** Builds the dashboard into `outDir` (default web/dist/) with Vite's JS API. */
export async function buildDashboard({ outDir = DASHBOARD_DIR, quiet = false } = {}) {
  const { build } = await import("vite");
  await build({
    root: WEB_DIR,
    // No vite.config file: this is the whole configuration.
    configFile: false,
    base: "./",
    logLevel: quiet ? "warn" : "info",
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: "assets",
      // The uPlot chunk is small; one script and one stylesheet.
      chunkSizeWarningLimit: 300,
    },
  });
  return outDir;
}

// `node scripts/buildDashboard.mjs [--if-missing]`
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes("--if-missing") && existsSync(`${DASHBOARD_DIR}index.html`)) process.exit(0);
  // The image's build stage installs before it copies the sources (`npm run build` follows).
  if (!existsSync(`${WEB_DIR}index.html`)) {
    process.stdout.write("dashboard not built: web/ is not here yet\n");
    process.exit(0);
  }
  if (!(await viteAvailable())) {
    process.stdout.write("dashboard not built: vite is not installed (a production install); `/` says so\n");
    process.exit(0);
  }
  await buildDashboard();
}
