import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadConfig, parseConfigJson } from "../../src/config/loadConfig.js";
import { toConfigJson } from "../../src/config/toConfigJson.js";
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

  test("behavior: toConfigJson round-trips through parseConfigJson", () => {
    const { config } = loadConfig({}, ["--config", preset]);
    const again = parseConfigJson(JSON.parse(JSON.stringify(toConfigJson(config.networks))), "round trip");
    expect(again.networks).toEqual(config.networks);
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
  });
});
