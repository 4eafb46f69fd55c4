import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Devnet } from "@swapgraph/devnet/startDevnet.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../src/config/loadConfig.js";
import { configFileSchema } from "../../src/config/networkConfigSchema.js";
import { startTestDevnet } from "../support/devnet.js";
import { type SwapgraphProcess, spawnSwapgraph } from "../support/spawnSwapgraph.js";
import { waitFor } from "../support/waitFor.js";
import { type ConfigFileExample, type CurlExample, readDocExamples } from "./readDocExamples.js";

const root = new URL("../..", import.meta.url).pathname;
const files = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];
const examples = readDocExamples(files, root);

const configDir = mkdtempSync(join(tmpdir(), "swapgraph-docs-config-"));
let devnet: Devnet;
let dataDir: string;
let swapgraph: SwapgraphProcess;
let base: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "swapgraph-docs-"));
  // The examples ask bsc and eth; live trading as in the demo, so the swap feed has news to send.
  devnet = await startTestDevnet({ networks: ["bsc", "eth"], liveIntervalMs: 2_000, dataDir });
  // The child is the real entry point on the devnet's manifest, as `npm start -- --config` runs
  // it; nothing of this environment may pick another store or other RPC URLs.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("SWAPGRAPH_") && name !== "DATABASE_URL"),
  );
  swapgraph = spawnSwapgraph({
    args: ["--config", devnet.manifestPath],
    env: { ...env, PORT: "0", LOG_LEVEL: "warn", SWAPGRAPH_DATA_DIR: join(dataDir, "store") },
  });
  base = await swapgraph.serving;
  await waitFor(async () => (await fetch(`${base}/ready`)).status === 200, 120_000, "/ready");
});

afterAll(async () => {
  if (swapgraph !== undefined && swapgraph.child.exitCode === null) {
    swapgraph.child.kill("SIGINT");
    await swapgraph.exited;
  }
  await devnet?.stop();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
});

/** Every key of every object in a JSON value, at any depth. */
function keysOf(value: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keysOf(item, keys);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      keysOf(inner, keys);
    }
  }
  return keys;
}

/** The keys a sample answer shows (it may be cut short with "..."). */
function sampleKeys(sample: string): string[] {
  return [...sample.matchAll(/"([^"\\]+)"\s*:/g)].map((match) => match[1]!);
}

/** The data of the first `next` event of an SSE answer; the stream is then closed. */
async function firstSseData(response: Response, controller: AbortController): Promise<unknown> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const timer = setTimeout(() => controller.abort(), 50_000);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before an event:\n${text}`);
      text += decoder.decode(value, { stream: true });
      const event = /event: next\ndata: (.*)\n\n/.exec(text);
      if (event !== null) return JSON.parse(event[1]!);
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Asserts that an answer's body matches what the doc shows after the command. */
function expectBodyAsShown(example: CurlExample, text: string): void {
  const sample = example.sample;
  if (sample === "") return;
  if (/^[[{]/.test(sample)) {
    const body = JSON.parse(text) as unknown;
    expect(Array.isArray(body), "the answer is an array exactly when the sample is").toBe(
      sample.startsWith("["),
    );
    const keys = keysOf(body);
    for (const key of sampleKeys(sample)) expect(keys, `key "${key}" of the sample`).toContain(key);
    // A whole sample of an error is deterministic: the doc must show the very answer.
    if (example.status >= 400) expect(body).toEqual(JSON.parse(sample));
  } else {
    for (const line of sample.split("\n").filter((l) => l.trim() !== "")) {
      expect(text, "a line of the sample").toContain(line.replace(/ [\d.e+-]+$/, ""));
    }
  }
}

describe("the curl examples answer as the docs show", () => {
  test.each(examples.curls.map((example) => [`${example.file}:${example.line}`, example] as const))(
    "behavior: %s",
    async (_, example) => {
      const controller = new AbortController();
      const response = await fetch(base + example.path, {
        method: example.method,
        headers: example.headers,
        ...(example.body === undefined ? {} : { body: example.body }),
        signal: controller.signal,
      });
      expect(response.status, example.command).toBe(example.status);
      for (const name of example.headerNames) expect(response.headers.has(name), `header ${name}`).toBe(true);
      if (example.headers.accept === "text/event-stream") {
        const data = await firstSseData(response, controller);
        const dataLine = example.sample.split("\n").find((line) => line.startsWith("data: "));
        expect(dataLine, "the sample shows an event").toBeDefined();
        const keys = keysOf(data);
        for (const key of sampleKeys(dataLine!)) expect(keys, `key "${key}" of the sample`).toContain(key);
        expect((data as { errors?: unknown }).errors).toBeUndefined();
        return;
      }
      expectBodyAsShown(example, await response.text());
    },
  );
});

describe("the GraphQL examples run", () => {
  test.each(examples.graphql.map((example) => [`${example.file}:${example.line}`, example] as const))(
    "behavior: %s",
    async (_, example) => {
      const subscription = example.document.startsWith("subscription");
      const controller = new AbortController();
      const response = subscription
        ? await fetch(`${base}/graphql?query=${encodeURIComponent(example.document)}`, {
            headers: { accept: "text/event-stream" },
            signal: controller.signal,
          })
        : await fetch(`${base}/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: example.document }),
          });
      expect(response.status).toBe(200);
      const answer = (subscription ? await firstSseData(response, controller) : await response.json()) as {
        data?: Record<string, unknown> | null;
        errors?: unknown;
      };
      expect(answer.errors, example.document).toBeUndefined();
      expect(Object.keys(answer.data ?? {}).length).toBeGreaterThan(0);
      for (const [field, value] of Object.entries(answer.data ?? {})) expect(value, field).not.toBeNull();
    },
  );
});

describe("the configuration examples load", () => {
  const written = new Map<string, string>();
  function pathOf(example: ConfigFileExample): string {
    const dir = join(configDir, example.file.replace(/\W/g, "_"));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, example.name);
    writeFileSync(path, example.json);
    written.set(`${example.file}:${example.name}`, path);
    return path;
  }
  for (const example of examples.configFiles) pathOf(example);

  test.each(examples.configCommands.map((example) => [`${example.file}:${example.line}`, example] as const))(
    "behavior: %s",
    (_, example) => {
      const path = written.get(`${example.file}:${example.config}`) ?? join(root, example.config);
      expect(existsSync(path), `${example.config}: a file of the same doc or of the repository`).toBe(true);
      const { config, demo } = loadConfig(example.env, ["--config", path]);
      expect(demo).toBe(false);
      expect(config.networks.length).toBeGreaterThan(0);
      expect(config.store.kind).toBe(example.env.DATABASE_URL === undefined ? "sqlite" : "postgres");
    },
  );

  test("behavior: every configuration file of the docs is loaded by a command beside it", () => {
    for (const example of examples.configFiles) {
      const loaded = examples.configCommands.some(
        (c) => c.file === example.file && c.config === example.name,
      );
      expect(loaded, `${example.file}:${example.line} ${example.name}`).toBe(true);
    }
  });

  test("behavior: docs/configuration.md's example names every key of the configuration file", () => {
    const documented = new Set<string>();
    for (const example of examples.configFiles.filter((e) => e.file === "docs/configuration.md")) {
      for (const path of jsonPaths(JSON.parse(example.json))) documented.add(path);
    }
    const missing = schemaPaths(configFileSchema).filter((path) => !documented.has(path));
    expect(missing).toEqual([]);
  });
});

describe("the README", () => {
  test("behavior: shows each REST endpoint, a GraphQL query and a configuration that loads", () => {
    const readme = examples.curls.filter((e) => e.file === "README.md").map((e) => e.path.split("?")[0]);
    for (const path of ["/api/quote", "/api/swaps_24h", "/api/trade_volume_usd_7d"])
      expect(readme).toContain(path);
    expect(examples.graphql.some((e) => e.file === "README.md")).toBe(true);
    expect(examples.configCommands.some((e) => e.file === "README.md")).toBe(true);
  });
});

/** Dotted paths of every object key in a JSON value (array items share their array's path). */
function jsonPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => jsonPaths(item, prefix));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    `${prefix}${key}`,
    ...jsonPaths(inner, `${prefix}${key}.`),
  ]);
}

/** Dotted paths of every key a zod schema's objects declare (records declare none). */
function schemaPaths(schema: z.ZodTypeAny, prefix = ""): string[] {
  if (schema instanceof z.ZodDefault) return schemaPaths(schema._def.innerType, prefix);
  if (schema instanceof z.ZodOptional) return schemaPaths(schema.unwrap(), prefix);
  if (schema instanceof z.ZodEffects) return schemaPaths(schema.innerType(), prefix);
  if (schema instanceof z.ZodArray) return schemaPaths(schema.element, prefix);
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).flatMap(([key, inner]) => [
      `${prefix}${key}`,
      ...schemaPaths(inner, `${prefix}${key}.`),
    ]);
  }
  return [];
}
