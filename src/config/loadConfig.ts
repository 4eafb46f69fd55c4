import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ZodError } from "zod";
import { NETWORKS } from "../domain/types.js";
import { ConfigError } from "../errors.js";
import { expandEnvVariables } from "./expandEnvVariables.js";
import {
  configFileSchema,
  GRAPHQL_BUDGET_DEFAULTS,
  LIST_BUDGET_DEFAULTS,
  LOG_LEVELS,
} from "./networkConfigSchema.js";
import type { AppConfig, NetworkConfig } from "./types.js";

/**
 * Environment variables swapgraph reads; any other variable can be referred to as `${NAME}` in
 * the configuration file.
 */
export interface ConfigEnv {
  SWAPGRAPH_CONFIG?: string | undefined;
  DATABASE_URL?: string | undefined;
  SWAPGRAPH_DATA_DIR?: string | undefined;
  PORT?: string | undefined;
  HOST?: string | undefined;
  LOG_LEVEL?: string | undefined;
  SWAPGRAPH_ROLE?: string | undefined;
  /** `SWAPGRAPH_RPC_BSC=url1,url2`: a network's RPC URLs, replacing the file's. */
  [name: string]: string | undefined;
}

const RPC_ENV_PREFIX = "SWAPGRAPH_RPC_";

/**
 * The RPC URL overrides of the environment (SWAPGRAPH_RPC_<NETWORK>=url1,url2), validated; a
 * variable for a network that does not exist or is not configured is an error, not ignored.
 */
function rpcUrlOverrides(env: ConfigEnv, configured: readonly string[]): Map<string, string[]> {
  const overrides = new Map<string, string[]>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(RPC_ENV_PREFIX) || value === undefined || value.trim() === "") continue;
    const network = name.slice(RPC_ENV_PREFIX.length).toLowerCase();
    if (!(NETWORKS as readonly string[]).includes(network)) {
      throw new ConfigError(
        `${name} names no network: expected one of ${NETWORKS.map((n) => RPC_ENV_PREFIX + n.toUpperCase()).join(", ")}`,
      );
    }
    if (!configured.includes(network)) {
      throw new ConfigError(
        `${name} is set but the configuration ${configured.length === 0 ? "is the embedded demo" : `names only ${configured.join(", ")}`}: add network ${network} to the file or unset ${name}`,
      );
    }
    const urls = value
      .split(",")
      .map((url) => url.trim())
      .filter((url) => url !== "");
    urls.forEach((url, i) => {
      // The value is not echoed: it usually carries an API key.
      if (!/^https?:\/\/[^/\s]+/.test(url) || !URL.canParse(url)) {
        throw new ConfigError(`${name}: URL ${i + 1} of ${urls.length} is not an http(s) URL`);
      }
    });
    overrides.set(network, urls);
  }
  return overrides;
}

/** The file's JSON with the environment's RPC URLs in place of its own (validated with the rest). */
function withRpcUrlOverrides(json: unknown, env: ConfigEnv): unknown {
  const networks = (json as { networks?: unknown } | null)?.networks;
  if (!Array.isArray(networks)) return json;
  const names = networks.map((network: unknown) =>
    String((network as { name?: unknown } | null)?.name ?? ""),
  );
  const overrides = rpcUrlOverrides(env, names);
  return {
    ...(json as object),
    networks: networks.map((network: unknown, i) => {
      const urls = overrides.get(names[i]!);
      return urls === undefined ? network : { ...(network as object), rpcUrls: urls };
    }),
  };
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

/**
 * Validates configuration JSON (a file's or the devnet manifest's) into network configs.
 * @internal exported for tests, which call this step alone.
 */
export function parseConfigJson(
  json: unknown,
  source: string,
): {
  networks: NetworkConfig[];
  /** The file's http section; keepSettledHours becomes AppConfig's swapsCacheDir (under the data directory). */
  http: Omit<AppConfig["http"], "swapsCacheDir"> & { keepSettledHours: boolean };
  logLevel: string | undefined;
} {
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
      dexes,
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
    file = parseConfigJson(withRpcUrlOverrides(expandEnvVariables(json, env, path), env), path);
  } else {
    rpcUrlOverrides(env, []);
  }

  const port = env.PORT === undefined ? (file?.http.port ?? 4000) : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || env.PORT?.trim() === "") {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);
  }
  const databaseUrl = env.DATABASE_URL;
  // The value is not echoed: it usually carries a password.
  if (
    databaseUrl !== undefined &&
    databaseUrl !== "" &&
    (!/^postgres(ql)?:\/\//.test(databaseUrl) || !URL.canParse(databaseUrl))
  ) {
    throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  if (env.HOST !== undefined && env.HOST.trim() === "") {
    throw new ConfigError('HOST must be an address to listen on, like "127.0.0.1" or "0.0.0.0"; it is empty');
  }
  const role = env.SWAPGRAPH_ROLE ?? "all";
  if (role !== "all" && role !== "api") {
    throw new ConfigError(`SWAPGRAPH_ROLE must be "all" or "api", got "${role}"`);
  }
  const logLevel = env.LOG_LEVEL ?? file?.logLevel ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
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
      connectionShare: file?.http.connectionShare ?? 0.25,
      listBytesPerSecond: file?.http.listBytesPerSecond ?? LIST_BUDGET_DEFAULTS.bytesPerSecond,
      listBurstBytes: file?.http.listBurstBytes ?? LIST_BUDGET_DEFAULTS.burstBytes,
      answerDeadlineMs: file?.http.answerDeadlineMs ?? 15_000,
      drainDelayMs: file?.http.drainDelayMs ?? 5_000,
      drainTimeoutMs: file?.http.drainTimeoutMs ?? 30_000,
      rateLimitPerSecond: file?.http.rateLimitPerSecond ?? 0,
      ...(file?.http.rateLimitBurst === undefined ? {} : { rateLimitBurst: file.http.rateLimitBurst }),
      trustProxy: file?.http.trustProxy ?? false,
      graphqlCostPerSecond: file?.http.graphqlCostPerSecond ?? GRAPHQL_BUDGET_DEFAULTS.costPerSecond,
      graphqlCostBurst: file?.http.graphqlCostBurst ?? GRAPHQL_BUDGET_DEFAULTS.costBurst,
      graphqlAloneCostPerSecond:
        file?.http.graphqlAloneCostPerSecond ?? GRAPHQL_BUDGET_DEFAULTS.aloneCostPerSecond,
      graphqlConcurrency: file?.http.graphqlConcurrency ?? GRAPHQL_BUDGET_DEFAULTS.concurrency,
      graphqlQueueLength: file?.http.graphqlQueueLength ?? GRAPHQL_BUDGET_DEFAULTS.queueLength,
      graphqlMaxWaitMs: file?.http.graphqlMaxWaitMs ?? GRAPHQL_BUDGET_DEFAULTS.maxWaitMs,
      persistedOperationsOnly: file?.http.persistedOperationsOnly ?? false,
      ...(file?.http.keepSettledHours === false ? {} : { swapsCacheDir: resolve(dataDir, "swaps-hours") }),
    },
    logLevel,
    role,
  };
  if (demo && role === "api") {
    throw new ConfigError("SWAPGRAPH_ROLE=api needs a configuration file and the store an indexer writes");
  }
  return { config: deepFreeze(config), demo };
}
