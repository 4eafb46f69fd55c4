import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { spawnSwapgraph } from "../support/spawnSwapgraph.js";

const root = new URL("../..", import.meta.url).pathname;
let app: string;

// The production layout, as in the Docker image: dist/ next to package.json, schema/, config/ and
// node_modules, and no src/ (so `npm start`'s launcher can only run the build).
beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), "swapgraph-build-"));
  // Without its type check (`npm run check` does that): the same output, ~20 s less under load.
  const built = spawnSync(
    process.execPath,
    ["scripts/build.mjs", "--out-dir", join(app, "dist"), "--no-check"],
    { cwd: root, encoding: "utf8" },
  );
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
  for (const path of ["package.json", "schema", "config", "scripts/start.mjs"]) {
    cpSync(join(root, path), join(app, path), { recursive: true });
  }
  // The installed packages as the image has them: all but the devnet's workspace (not in its context).
  mkdirSync(join(app, "node_modules", "@swapgraph"), { recursive: true });
  for (const name of readdirSync(join(root, "node_modules"))) {
    if (name !== "@swapgraph") symlinkSync(join(root, "node_modules", name), join(app, "node_modules", name));
  }
  // The build (tsc, the dashboard) overran 120 s at load average 37 on 2 cores: a generous bound.
}, 300_000);

afterAll(() => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
});

describe("the production build", () => {
  test("behavior: npm start runs dist/ without tsx: it loads the schema, package.json and serves", async () => {
    expect(existsSync(join(app, "dist", "start.js"))).toBe(true);
    // Token lookups run the deployless reader from its committed artifact, without solc.
    expect(existsSync(join(app, "dist", "chain", "artifacts", "CappedMulticall.json"))).toBe(true);
    // Every RPC URL refuses (401, no retries): the process serves, and stops at once.
    const refusing = createServer((_, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => void refusing.close());
    const closed = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    const run = spawnSwapgraph({
      cwd: app,
      entry: ["scripts/start.mjs"],
      args: ["--config", "config/mainnet.json"],
      env: {
        PATH: process.env.PATH,
        PORT: "0",
        SWAPGRAPH_DATA_DIR: join(app, "data"),
        SWAPGRAPH_RPC_BSC: closed,
        SWAPGRAPH_RPC_ETH: closed,
        SWAPGRAPH_RPC_POLYGON: closed,
      },
      timeoutMs: 30_000,
    });
    const { output } = run;
    try {
      const base = await run.serving;
      const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as { info: { version: string } };
      expect(openapi.info.version).toBe("0.1.0");
      const graphql = await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ status { network } }" }),
      });
      expect(await graphql.json()).toEqual({
        data: { status: [{ network: "bsc" }, { network: "eth" }, { network: "polygon" }] },
      });
      expect((await fetch(`${base}/docs`)).status).toBe(200);
      // Not a terminal: JSON lines.
      const logged = output.find((line) => line.startsWith("{"));
      expect(JSON.parse(logged!)).toHaveProperty("level");
    } finally {
      run.child.kill("SIGINT");
    }
    expect(await run.exited).toBe(0);
  });
});

const DEVNET_SRC = join(root, "packages", "devnet", "src");

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * Marks only the devnet has: the compound names of the functions its modules declare that no
 * product source names (esbuild keeps a bundled function's name, with a digit when two collide), and a
 * slice of each contract's bytecode it deploys.
 */
function devnetMarks(): { functions: string[]; bytecodes: string[] } {
  const product = filesUnder(join(root, "src"))
    .filter((file) => file.endsWith(".ts"))
    .map((file) => readFileSync(join(root, "src", file), "utf8"))
    .join("\n");
  const functions = new Set<string>();
  for (const file of filesUnder(DEVNET_SRC).filter((name) => name.endsWith(".ts"))) {
    for (const match of readFileSync(join(DEVNET_SRC, file), "utf8").matchAll(/\bfunction\s+(\w+)/g)) {
      const name = match[1]!;
      // Compound names only (deployChainCases, not execute): a bundled dependency may declare a word.
      if (/^[a-z]+[A-Z]/.test(name) && !new RegExp(`\\b${name}\\b`).test(product)) functions.add(name);
    }
  }
  const bytecodes = filesUnder(join(DEVNET_SRC, "artifacts")).map((file) => {
    const { bytecode } = JSON.parse(readFileSync(join(DEVNET_SRC, "artifacts", file), "utf8")) as {
      bytecode: string;
    };
    return bytecode.slice(200, 264);
  });
  return { functions: [...functions], bytecodes };
}

/**
 * The files `docker build .` sends: every file under the repository's directory (the context is
 * the directory on disk, git or not: .ci/node-lines runs this file in a copy without .git) minus
 * what .dockerignore excludes. Its patterns as Docker reads them: relative to the context, `*`
 * within a segment, `**` across segments, a directory excluding what it holds, `!` taking a path
 * back; the last matching line wins. An excluded directory no `!` line reaches into is not walked.
 */
function dockerContext(): string[] {
  const rules = readFileSync(join(root, ".dockerignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const keep = line.startsWith("!");
      const pattern = (keep ? line.slice(1) : line).replace(/^\/+/, "").replace(/\/+$/, "");
      const body = pattern
        .split("**")
        .map((part) =>
          part
            .split("*")
            .map((text) => text.replace(/[.+^${}()|[\]\\?]/g, "\\$&"))
            .join("[^/]*"),
        )
        .join(".*");
      return { keep, pattern, regex: new RegExp(`^${body}(?:/.*)?$`) };
    });
  const excluded = (path: string) => {
    let out = false;
    for (const rule of rules) if (rule.regex.test(path)) out = !rule.keep;
    return out;
  };
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (!entry.isDirectory()) {
        if (!excluded(path)) files.push(path);
      } else if (!excluded(path) || rules.some((rule) => rule.keep && rule.pattern.startsWith(`${path}/`))) {
        walk(path);
      }
    }
  };
  walk("");
  return files;
}

describe("the devnet stays out of the product", () => {
  test("error: without a configuration file, a build without the devnet says to give one and exits", async () => {
    const run = spawnSwapgraph({
      cwd: app,
      entry: ["scripts/start.mjs"],
      env: { PATH: process.env.PATH, PORT: "0", SWAPGRAPH_DATA_DIR: join(app, "data-demo") },
      timeoutMs: 30_000,
    });
    expect(await run.exited).toBe(1);
    const output = run.output.join("\n");
    expect(output).toMatch(
      /swapgraph failed to start: No configuration file, and the embedded demo's devnet \(@swapgraph\/devnet, packages\/devnet\) is not installed here .*--config <file> or SWAPGRAPH_CONFIG/,
    );
    // No demo begins where there is none to begin.
    expect(output).not.toContain("starting the embedded demo");
  });

  test("behavior: the production build holds no devnet file, contract or function", () => {
    const built = filesUnder(join(app, "dist"));
    expect(built).toContain("start.js");
    const devnetFiles = filesUnder(DEVNET_SRC);
    expect(devnetFiles.length).toBeGreaterThan(100);
    // No file of the package (its contract artifacts, Solidity sources, modules) by name.
    const stem = (file: string) => basename(file).replace(/(-[A-Z0-9]{8})?\.(ts|js|js\.map|json|sol)$/, "");
    const devnetNames = new Set(devnetFiles.map(stem));
    expect(devnetNames).toContain("DevnetToken");
    expect(built.filter((file) => devnetNames.has(stem(file)))).toEqual([]);
    const { functions, bytecodes } = devnetMarks();
    expect(functions.length).toBeGreaterThan(100);
    expect(functions).toEqual(
      expect.arrayContaining(["startDevnetChain", "createProviderEmulator", "deployChainCases"]),
    );
    expect(bytecodes).toHaveLength(devnetFiles.filter((file) => file.startsWith("artifacts/")).length);
    const found: string[] = [];
    for (const file of built.filter((name) => /\.(js|json)$/.test(name))) {
      const text = readFileSync(join(app, "dist", file), "utf8");
      const declared = new Set(
        [...text.matchAll(/\bfunction\s+([\w$]+?)\d*\s*\(/g)].map((match) => match[1]),
      );
      for (const name of functions) if (declared.has(name)) found.push(`${file}: function ${name}`);
      for (const code of bytecodes)
        if (text.includes(code)) found.push(`${file}: bytecode ${code.slice(0, 16)}`);
    }
    expect(found).toEqual([]);
    // The one way in: the demo's loader names the package, for tsx to load at run time.
    const loader = built.filter(
      (file) =>
        file.endsWith(".js") && readFileSync(join(app, "dist", file), "utf8").includes("@swapgraph/devnet"),
    );
    expect(loader).toHaveLength(1);
  });

  test("behavior: the Docker build context holds no devnet file", () => {
    const context = dockerContext();
    expect(context).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json", "src/main.ts", "src/start.ts"]),
    );
    expect(context.filter((file) => file.startsWith("packages/") || file.includes("devnet/"))).toEqual([]);
    // The image copies from the context only (the build stage's own files aside), by name.
    expect(readFileSync(join(root, "Dockerfile"), "utf8")).not.toMatch(/^COPY\s+(?!--from)\S*packages/m);
  });
});
