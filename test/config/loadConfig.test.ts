// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the configuration file's ${VAR} syntax is tested literally
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig } from "../../src/config/loadConfig.js";
import { GRAPHQL_BUDGET_DEFAULTS, LIST_BUDGET_DEFAULTS } from "../../src/config/networkConfigSchema.js";
import { USD_SCALE } from "../../src/domain/types.js";
import { ConfigError } from "../../src/errors.js";

const preset = new URL("../../config/mainnet.json", import.meta.url).pathname;

function writeJson(value: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "swapgraph-config-")), "config.json");
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

describe("loadConfig", () => {
  test("behavior: no config file means the embedded demo on SQLite", () => {
    const { config, demo } = loadConfig({ SWAPGRAPH_DATA_DIR: "/tmp/x" });
    expect(demo).toBe(true);
    expect(config.store).toEqual({ kind: "sqlite", path: "/tmp/x/demo.sqlite" });
    expect(config.http.port).toBe(4000);
    expect(Object.isFrozen(config)).toBe(true);
  });

  test("behavior: the mainnet preset parses, addresses lowercased, USD scaled", () => {
    const { config, demo } = loadConfig({ DATABASE_URL: "postgres://u@127.0.0.1/db" }, ["--config", preset]);
    expect(demo).toBe(false);
    expect(config.store).toEqual({ kind: "postgres", url: "postgres://u@127.0.0.1/db" });
    expect(config.networks.map((n) => n.name)).toEqual(["bsc", "eth", "polygon"]);
    const bsc = config.networks[0]!;
    expect(bsc.native.wrapped).toBe("0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c");
    expect(bsc.minLiquidityUsd).toBe(50_000n * USD_SCALE);
    expect(bsc.dexes[0]!.feeBps).toBe(25);
    expect(config.networks[2]!.native.aliases).toEqual(["MATIC"]);
    expect(Object.isFrozen(config.networks[0]!.dexes)).toBe(true);
  });

  test("args: the http section's edge settings, with their defaults", () => {
    const file = JSON.parse(readFileSync(preset, "utf8")) as Record<string, unknown>;
    expect(loadConfig({}, ["--config", preset]).config.http).toMatchObject({
      persistedOperationsOnly: false,
      rateLimitPerSecond: 0,
      trustProxy: false,
    });
    const locked = writeJson({ ...file, http: { persistedOperationsOnly: true, rateLimitPerSecond: 50 } });
    expect(loadConfig({}, ["--config", locked]).config.http).toMatchObject({
      persistedOperationsOnly: true,
      rateLimitPerSecond: 50,
    });
    const bad = writeJson({ ...file, http: { persistedOperationsOnly: "yes" } });
    expect(() => loadConfig({}, ["--config", bad])).toThrow(/http\.persistedOperationsOnly/);
    // Settled hours of the swap list are kept under the data directory unless turned off.
    expect(
      loadConfig({ SWAPGRAPH_DATA_DIR: "/var/swapgraph" }, ["--config", preset]).config.http.swapsCacheDir,
    ).toBe("/var/swapgraph/swaps-hours");
    const unkept = writeJson({ ...file, http: { keepSettledHours: false } });
    expect(loadConfig({}, ["--config", unkept]).config.http.swapsCacheDir).toBeUndefined();
  });

  test("args: the connection share and the list budget, with their defaults in the demo and in a file; a share outside (0, 1] is refused", () => {
    const file = JSON.parse(readFileSync(preset, "utf8")) as Record<string, unknown>;
    const defaults = {
      connectionShare: 0.25,
      listBytesPerSecond: LIST_BUDGET_DEFAULTS.bytesPerSecond,
      listBurstBytes: LIST_BUDGET_DEFAULTS.burstBytes,
    };
    expect(loadConfig({}).config.http).toMatchObject(defaults);
    expect(loadConfig({}, ["--config", preset]).config.http).toMatchObject(defaults);
    const set = writeJson({ ...file, http: { connectionShare: 0.1, listBytesPerSecond: 0 } });
    expect(loadConfig({}, ["--config", set]).config.http).toMatchObject({
      ...defaults,
      connectionShare: 0.1,
      listBytesPerSecond: 0,
    });
    const bad = writeJson({ ...file, http: { connectionShare: 1.5 } });
    expect(() => loadConfig({}, ["--config", bad])).toThrow(/http\.connectionShare/);
  });

  test("args: the GraphQL client budget, with its defaults in the demo and in a file; 0 turns a part off", () => {
    const file = JSON.parse(readFileSync(preset, "utf8")) as Record<string, unknown>;
    const defaults = {
      graphqlCostPerSecond: GRAPHQL_BUDGET_DEFAULTS.costPerSecond,
      graphqlCostBurst: GRAPHQL_BUDGET_DEFAULTS.costBurst,
      graphqlAloneCostPerSecond: GRAPHQL_BUDGET_DEFAULTS.aloneCostPerSecond,
      graphqlConcurrency: GRAPHQL_BUDGET_DEFAULTS.concurrency,
      graphqlQueueLength: GRAPHQL_BUDGET_DEFAULTS.queueLength,
      graphqlMaxWaitMs: GRAPHQL_BUDGET_DEFAULTS.maxWaitMs,
    };
    expect(loadConfig({}).config.http).toMatchObject(defaults);
    expect(loadConfig({}, ["--config", preset]).config.http).toMatchObject(defaults);
    const off = writeJson({ ...file, http: { graphqlCostPerSecond: 0, graphqlConcurrency: 0 } });
    expect(loadConfig({}, ["--config", off]).config.http).toMatchObject({
      ...defaults,
      graphqlCostPerSecond: 0,
      graphqlConcurrency: 0,
    });
    const bad = writeJson({ ...file, http: { graphqlConcurrency: -1, graphqlMaxWaitMs: 1.5 } });
    expect(() => loadConfig({}, ["--config", bad])).toThrow(
      /http\.graphqlConcurrency: Number must be greater than or equal to 0; http\.graphqlMaxWaitMs: Expected integer/,
    );
  });

  test("error: invalid values are named with what was expected", () => {
    const path = writeJson({
      networks: [
        {
          name: "solana",
          chainId: 1,
          rpcUrls: ["ftp://x"],
          native: { name: "Ether", symbol: "ETH", wrapped: "0x12" },
          dexes: [],
          tokenList: { name: "x", timestamp: "t", version: { major: 1, minor: 0, patch: 0 }, tokens: [] },
          stablecoins: [],
          baseTokens: [],
        },
      ],
    });
    expect(() => loadConfig({ SWAPGRAPH_CONFIG: path })).toThrow(ConfigError);
    try {
      loadConfig({ SWAPGRAPH_CONFIG: path });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("networks.0.name");
      expect(message).toContain("networks.0.rpcUrls.0: expected an http(s) URL");
      expect(message).toContain("networks.0.native.wrapped: expected a 0x-prefixed 20-byte hex address");
      expect(message).toContain("networks.0.dexes: expected at least one DEX");
    }
  });

  test("error: unreadable file, bad JSON, bad PORT and DATABASE_URL", () => {
    expect(() => loadConfig({ SWAPGRAPH_CONFIG: "/nonexistent/x.json" })).toThrow(
      /Cannot read the configuration file/,
    );
    expect(() => loadConfig({ SWAPGRAPH_CONFIG: writeJson("{nope") })).toThrow(/is not valid JSON/);
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT must be an integer/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL must be a postgres/);
    expect(() => loadConfig({}, ["--config"])).toThrow(/--config needs a path/);
    expect(() => loadConfig({ SWAPGRAPH_ROLE: "worker" })).toThrow(/SWAPGRAPH_ROLE must be "all" or "api"/);
    expect(() => loadConfig({ SWAPGRAPH_ROLE: "api" })).toThrow(/needs a configuration file/);
    expect(() => loadConfig({ PORT: "" })).toThrow(/PORT must be an integer/);
    expect(() => loadConfig({ HOST: " " })).toThrow(/HOST must be an address/);
    expect(() => loadConfig({ DATABASE_URL: "postgres://u:SECRET@[bad" })).toThrow(
      /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
  });

  test("error: LOG_LEVEL is one of pino's levels, from the environment or the file", () => {
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"]`,
    );
    expect(loadConfig({ LOG_LEVEL: "debug" }).config.logLevel).toBe("debug");
    const path = writeJson({ ...presetJson(), logLevel: "loud" });
    expect(() => loadConfig({ SWAPGRAPH_CONFIG: path })).toThrow(/logLevel: Invalid enum value/);
  });
});

function presetJson(): Record<string, unknown> & { networks: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(preset, "utf8")) as Record<string, unknown> & {
    networks: Record<string, unknown>[];
  };
}

describe("loadConfig: environment", () => {
  test("behavior: SWAPGRAPH_RPC_<NETWORK> replaces that network's RPC URLs (comma-separated)", () => {
    const { config } = loadConfig(
      {
        SWAPGRAPH_RPC_BSC: "https://a.example/v3/KEY1, https://b.example/KEY2",
        SWAPGRAPH_RPC_POLYGON: "",
      },
      ["--config", preset],
    );
    expect(config.networks[0]!.rpcUrls).toEqual(["https://a.example/v3/KEY1", "https://b.example/KEY2"]);
    // Empty means not set; other networks keep the file's URLs.
    expect(config.networks[2]!.rpcUrls).toEqual(presetJson().networks[2]!.rpcUrls);
  });

  test("error: a bad SWAPGRAPH_RPC_* names the variable and never echoes its value", () => {
    const run = (env: Record<string, string>) => () => loadConfig(env, ["--config", preset]);
    expect(
      run({ SWAPGRAPH_RPC_BSC: "https://ok.example/KEY,ftp://SECRET" }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: SWAPGRAPH_RPC_BSC: URL 2 of 2 is not an http(s) URL]`,
    );
    expect(run({ SWAPGRAPH_RPC_BNB: "https://x.example" })).toThrowErrorMatchingInlineSnapshot(
      `[ConfigError: SWAPGRAPH_RPC_BNB names no network: expected one of SWAPGRAPH_RPC_BSC, SWAPGRAPH_RPC_ETH, SWAPGRAPH_RPC_POLYGON]`,
    );
    const onlyBsc = writeJson({ ...presetJson(), networks: [presetJson().networks[0]] });
    expect(() => loadConfig({ SWAPGRAPH_RPC_ETH: "https://x.example" }, ["--config", onlyBsc])).toThrow(
      "SWAPGRAPH_RPC_ETH is set but the configuration names only bsc: add network eth to the file or unset SWAPGRAPH_RPC_ETH",
    );
    expect(() => loadConfig({ SWAPGRAPH_RPC_ETH: "https://x.example" })).toThrow(
      /SWAPGRAPH_RPC_ETH is set but the configuration is the embedded demo/,
    );
  });

  test("behavior: ${VAR} and ${VAR:-default} in the file are expanded from the environment", () => {
    const json = presetJson();
    json.networks[0]!.rpcUrls = [
      "https://bsc.example/v3/${BSC_KEY}",
      "${BSC_BACKUP:-https://backup.example}",
    ];
    json.networks[0]!.startBlock = "${START}";
    json.networks[1]!.native = { ...(json.networks[1]!.native as object), name: "Ether $${literal}" };
    const { config } = loadConfig({ BSC_KEY: "k1", START: "123" }, ["--config", writeJson(json)]);
    expect(config.networks[0]!.rpcUrls).toEqual(["https://bsc.example/v3/k1", "https://backup.example"]);
    expect(config.networks[0]!.startBlock).toBe(123n);
    expect(config.networks[1]!.native.name).toBe("Ether ${literal}");
  });

  test("error: a variable the file refers to but the environment lacks names the field and the variable", () => {
    const json = presetJson();
    json.networks[1]!.rpcUrls = ["https://eth.example/${ETH_KEY}"];
    const path = writeJson(json);
    expect(() => loadConfig({}, ["--config", path])).toThrow(
      `Invalid configuration in ${path}: networks.1.rpcUrls.0: the environment variable ETH_KEY is not set (the file refers to \${ETH_KEY})`,
    );
    json.networks[1]!.rpcUrls = ["https://eth.example/${ETH-KEY}"];
    expect(() => loadConfig({}, ["--config", writeJson(json)])).toThrow(
      /networks\.1\.rpcUrls\.0: "\$\{ETH-KEY\}" is not a variable reference/,
    );
  });
});
