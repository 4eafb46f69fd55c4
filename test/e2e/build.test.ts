import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  symlinkSync(join(root, "node_modules"), join(app, "node_modules"));
  // The build (tsc, the dashboard) overran 120 s at load average 37 on 2 cores: a generous bound.
}, 300_000);

afterAll(() => {
  if (app !== undefined) rmSync(app, { recursive: true, force: true });
});

describe("the production build", () => {
  test("behavior: npm start runs dist/ without tsx: it loads the schema, package.json and serves", async () => {
    expect(existsSync(join(app, "dist", "start.js"))).toBe(true);
    // The devnet deploys committed artifacts; its Solidity sources and their compiler stay behind.
    expect(existsSync(join(app, "dist", "devnet", "artifacts", "DevnetToken.json"))).toBe(true);
    expect(existsSync(join(app, "dist", "devnet", "contracts"))).toBe(false);
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
