import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ZodError } from "zod";
import { ConfigError } from "../errors.js";
import { configFileSchema } from "./networkConfigSchema.js";
import type { AppConfig, NetworkConfig } from "./types.js";

/** Environment variables swapgraph reads. */
export interface ConfigEnv {
  SWAPGRAPH_CONFIG?: string | undefined;
  DATABASE_URL?: string | undefined;
  SWAPGRAPH_DATA_DIR?: string | undefined;
  PORT?: string | undefined;
  HOST?: string | undefined;
  LOG_LEVEL?: string | undefined;
  SWAPGRAPH_ROLE?: string | undefined;
}

function describe(error: ZodError, source: string): string {
  const issues = error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  return `Invalid configuration in ${source}: ${issues.join("; ")}`;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Validates configuration JSON (a file's or the devnet manifest's) into network configs. */
export function parseConfigJson(
  json: unknown,
  source: string,
): { networks: NetworkConfig[]; http: AppConfig["http"]; logLevel: string | undefined } {
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(describe(parsed.error, source));
  const names = parsed.data.networks.map((network) => network.name);
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined)
    throw new ConfigError(`Invalid configuration in ${source}: network ${duplicate} is listed twice`);
  // exactOptionalPropertyTypes: optional keys are left out rather than set to undefined.
  const networks = parsed.data.networks.map((network): NetworkConfig => {
    const { startBlock, dexes, tokenList, ...rest } = network;
    const config: NetworkConfig = {
      ...rest,
      dexes: dexes.map(({ router, ...dex }) => (router === undefined ? dex : { ...dex, router })),
      tokenList: {
        ...tokenList,
        tokens: tokenList.tokens.map(({ tags, ...entry }) =>
          tags === undefined ? entry : { ...entry, tags },
        ),
      },
    };
    return startBlock === undefined ? config : { ...config, startBlock };
  });
  const { rateLimitBurst, ...http } = parsed.data.http;
  return {
    networks,
    http: rateLimitBurst === undefined ? http : { ...http, rateLimitBurst },
    logLevel: parsed.data.logLevel,
  };
}

/**
 * Reads the environment and the configuration file (if any) into one frozen, validated config.
 * Without SWAPGRAPH_CONFIG (or a --config argument) there are no networks: the caller starts the
 * embedded demo chains and fills them in. DATABASE_URL selects PostgreSQL, else SQLite.
 */
export function loadConfig(
  env: ConfigEnv,
  argv: readonly string[] = [],
): { config: AppConfig; demo: boolean } {
  const flag = argv.indexOf("--config");
  const path = flag >= 0 ? argv[flag + 1] : env.SWAPGRAPH_CONFIG;
  if (flag >= 0 && (path === undefined || path.startsWith("--"))) {
    throw new ConfigError("--config needs a path to a JSON configuration file");
  }
  let file: ReturnType<typeof parseConfigJson> | undefined;
  if (path !== undefined && path !== "") {
    let text: string;
    try {
      text = readFileSync(resolve(path), "utf8");
    } catch (error) {
      throw new ConfigError(`Cannot read the configuration file ${path}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`The configuration file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    file = parseConfigJson(json, path);
  }

  const port = env.PORT === undefined ? (file?.http.port ?? 4000) : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }
  const databaseUrl = env.DATABASE_URL;
  if (databaseUrl !== undefined && databaseUrl !== "" && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  const role = env.SWAPGRAPH_ROLE ?? "all";
  if (role !== "all" && role !== "api") {
    throw new ConfigError(`SWAPGRAPH_ROLE must be "all" or "api", got "${role}"`);
  }
  const dataDir = env.SWAPGRAPH_DATA_DIR ?? ".data";
  const demo = file === undefined;
  const config: AppConfig = {
    networks: file?.networks ?? [],
    store:
      databaseUrl !== undefined && databaseUrl !== ""
        ? { kind: "postgres", url: databaseUrl }
        : { kind: "sqlite", path: resolve(dataDir, demo ? "demo.sqlite" : "swapgraph.sqlite") },
    http: {
      host: env.HOST ?? file?.http.host ?? "127.0.0.1",
      port,
      maxConnections: file?.http.maxConnections ?? 8192,
      drainDelayMs: file?.http.drainDelayMs ?? 5_000,
      drainTimeoutMs: file?.http.drainTimeoutMs ?? 30_000,
      rateLimitPerSecond: file?.http.rateLimitPerSecond ?? 0,
      ...(file?.http.rateLimitBurst === undefined ? {} : { rateLimitBurst: file.http.rateLimitBurst }),
      trustProxy: file?.http.trustProxy ?? false,
    },
    logLevel: env.LOG_LEVEL ?? file?.logLevel ?? "info",
    role,
  };
  if (demo && role === "api") {
    throw new ConfigError("SWAPGRAPH_ROLE=api needs a configuration file and the store an indexer writes");
  }
  return { config: deepFreeze(config), demo };
}
