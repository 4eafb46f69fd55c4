import { z } from "zod";
import type { Address } from "../domain/types.js";
import { NETWORKS, USD_SCALE } from "../domain/types.js";
import { DEX_PRESET_NAMES } from "./dexPresets.js";
import { expandDexPreset } from "./expandDexPreset.js";
import { DEX_KINDS } from "./types.js";

/** pino's levels, for LOG_LEVEL and `logLevel`. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "expected a 0x-prefixed 20-byte hex address")
  .transform((value) => value.toLowerCase() as Address);

const url = z
  .string()
  .url("expected an http(s) URL")
  .refine((value) => /^https?:\/\//.test(value), "expected an http(s) URL");

const tokenListEntry = z.object({
  chainId: z.number().int().positive(),
  address,
  name: z.string().min(1),
  symbol: z.string().min(1),
  decimals: z.number().int().min(0).max(255),
  tags: z.array(z.string()).optional(),
});

const tokenList = z.object({
  name: z.string(),
  timestamp: z.string(),
  version: z.object({ major: z.number().int(), minor: z.number().int(), patch: z.number().int() }),
  tokens: z.array(tokenListEntry),
});

// Whole USD as a decimal string ("10000" or "2500.5"), held as 10^18 fixed point.
const usd = z
  .union([z.string(), z.number()])
  .transform((value) => String(value))
  .refine((value) => /^\d+(\.\d{1,18})?$/.test(value), 'expected a non-negative USD amount like "10000"')
  .transform((value) => {
    const [whole = "0", frac = ""] = value.split(".");
    return BigInt(whole) * USD_SCALE + BigInt(frac.padEnd(18, "0"));
  });

const blockNumber = z
  .union([z.string().regex(/^\d+$/, "expected a block number"), z.number().int().nonnegative()])
  .transform((value) => BigInt(value));

/** The JSON shape of one network in a configuration file or the devnet manifest. */
const networkConfigSchema = z
  .object({
    name: z.enum(NETWORKS),
    chainId: z.number().int().positive(),
    rpcUrls: z.array(url).min(1, "expected at least one RPC URL"),
    native: z.object({
      name: z.string().min(1),
      symbol: z.string().min(1),
      aliases: z.array(z.string()).default([]),
      decimals: z.number().int().default(18),
      wrapped: address,
    }),
    dexes: z
      .array(
        z.object({
          name: z.string().min(1),
          preset: z
            .enum(DEX_PRESET_NAMES, {
              errorMap: (_, ctx) => ({
                message: `unknown preset ${JSON.stringify(ctx.data)}: expected one of ${DEX_PRESET_NAMES.join(", ")}`,
              }),
            })
            .optional(),
          kind: z.enum(DEX_KINDS).optional(),
          factory: address.optional(),
          deployer: address.optional(),
          router: address.optional(),
          feeBps: z.number().int().min(0).max(1000).optional(),
        }),
      )
      .min(1, "expected at least one DEX"),
    tokenList,
    stablecoins: z.array(address),
    baseTokens: z.array(address).min(1, "expected at least one base token"),
    minLiquidityUsd: usd.default("10000"),
    startBlock: blockNumber.optional(),
    windowDays: z.number().int().min(1).max(31).default(7),
    finalityDepth: z.number().int().min(1).default(64),
    pollIntervalMs: z.number().int().min(50).default(2000),
    maxLogRange: z.number().int().min(1).default(2000),
    maxStalenessSeconds: z.number().int().min(1).default(600),
    rpc: z
      .object({
        timeoutMs: z.number().int().min(100).max(600_000).default(10_000),
        requestsPerSecond: z.number().min(0).default(0),
        costModel: z.enum(["auto", "computeUnits", "time", "bytes", "calls"]).default("auto"),
        computeUnits: z.record(z.string().regex(/^[a-z]+_[A-Za-z]+$/), z.number().min(0)).optional(),
        maxLogAddresses: z.number().int().min(0).max(100_000).default(4_000),
        retryDelayMs: z.number().int().min(1).max(60_000).default(250),
        cooldownMs: z.number().int().min(1).max(600_000).default(5_000),
      })
      .strict()
      .default({}),
  })
  .strict()
  // A preset's values depend on the network's chainId: entries are expanded once it is known.
  .transform(({ dexes, ...network }, ctx) => ({
    ...network,
    dexes: dexes.flatMap((dex, i) => expandDexPreset(dex, network.chainId, ctx, ["dexes", i]) ?? []),
  }));

/**
 * Defaults of the per-client GraphQL budget (http.graphql*), chosen with bench/fairness.ts: while
 * 4 clients send the heaviest admitted query without pause, another client's quotes kept a p99
 * of 7.5-10.8 ms at 1,000 a second (2,000: 32-36 ms). One such query holds the event loop for
 * 100-400 ms, so it must be rare: once per 250 s per client here.
 */
export const GRAPHQL_BUDGET_DEFAULTS = {
  costPerSecond: 1_000,
  costBurst: 250_000,
  // A client alone on the server (no other client's operation for 5 s) refills at this rate:
  // 10 pages of 1,000 swaps with every field a second, more than the server renders, so one
  // reader paging history is limited by the server, not the budget (bench/fairness.ts "paging").
  aloneCostPerSecond: 2_000_000,
  concurrency: 4,
  queueLength: 16,
  maxWaitMs: 2_000,
} as const;

/**
 * Defaults of the per-client list budget (http.listBytesPerSecond, http.listBurstBytes): bytes of
 * whole lists (/api/swaps_24h, a pool's trades, DEX Screener's events) one client may take: 64 MiB
 * at once, 1 MiB a second sustained (86 GB a day). A client reading the demo's 24-hour lists
 * (0.2-2 MB each) every few seconds never meets it; one downloading without pause is held to
 * 1 MiB/s after its first 64 MiB (bench/httpFairness.ts). A single answer is never cut: a BSC day
 * (1M trades, ~520 MB) goes out whole, and its client's next list waits for the refill.
 */
export const LIST_BUDGET_DEFAULTS = {
  bytesPerSecond: 1024 * 1024,
  burstBytes: 64 * 1024 * 1024,
} as const;

/** The JSON shape of a configuration file. */
export const configFileSchema = z
  .object({
    http: z
      .object({
        host: z.string().default("127.0.0.1"),
        port: z.number().int().min(0).max(65535).default(4000),
        maxConnections: z.number().int().min(1).default(8192),
        connectionShare: z.number().gt(0).max(1).default(0.25),
        listBytesPerSecond: z.number().int().min(0).default(LIST_BUDGET_DEFAULTS.bytesPerSecond),
        listBurstBytes: z.number().int().min(1).default(LIST_BUDGET_DEFAULTS.burstBytes),
        answerDeadlineMs: z.number().int().min(100).max(600_000).default(15_000),
        drainDelayMs: z.number().int().min(0).max(600_000).default(5_000),
        drainTimeoutMs: z.number().int().min(0).max(600_000).default(30_000),
        rateLimitPerSecond: z.number().min(0).default(0),
        rateLimitBurst: z.number().int().min(1).optional(),
        trustProxy: z.boolean().default(false),
        graphqlCostPerSecond: z.number().min(0).default(GRAPHQL_BUDGET_DEFAULTS.costPerSecond),
        graphqlCostBurst: z.number().int().min(1).default(GRAPHQL_BUDGET_DEFAULTS.costBurst),
        graphqlAloneCostPerSecond: z.number().min(0).default(GRAPHQL_BUDGET_DEFAULTS.aloneCostPerSecond),
        graphqlConcurrency: z.number().int().min(0).default(GRAPHQL_BUDGET_DEFAULTS.concurrency),
        graphqlQueueLength: z.number().int().min(0).default(GRAPHQL_BUDGET_DEFAULTS.queueLength),
        graphqlMaxWaitMs: z.number().int().min(0).max(60_000).default(GRAPHQL_BUDGET_DEFAULTS.maxWaitMs),
        persistedOperationsOnly: z.boolean().default(false),
        keepSettledHours: z.boolean().default(true),
      })
      .strict()
      .default({}),
    logLevel: z.enum(LOG_LEVELS).optional(),
    networks: z.array(networkConfigSchema).min(1, "expected at least one network"),
  })
  .strict();
