import type { RpcTimings } from "./createRpcTimings.js";
import type { RpcLane } from "./createTokenBucket.js";

// The shapes createRpcClient's parts share: its logger, its resolved settings, one JSON-RPC
// request and one URL's health.

/** A pino-compatible logger (warn, and info for a rate limit's end when there is one). */
export interface RpcLogger {
  warn(details: Record<string, unknown>, message: string): void;
  info?(details: Record<string, unknown>, message: string): void;
}

/** createRpcClient's options with their defaults applied (see CreateRpcClientOptions). */
export interface RpcSettings {
  /** Network name for messages and metric labels. */
  network: string;
  /** Per HTTP request, in ms. */
  timeout: number;
  retryCount: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  cooldownMs: number;
  deadlineMs: number;
  maxResponseBytes: number;
  /** Whose calls these are: the order in which each URL's pacer serves them (createTokenBucket). */
  lane: RpcLane;
  log: RpcLogger | undefined;
  /** Where each HTTP request's time and answer size are recorded (the "time" cost model's input). */
  timings?: RpcTimings | undefined;
}

/** One JSON-RPC request as a transport receives it. */
export interface RequestArgs {
  method: string;
  params?: unknown;
}

/** What the client knows of one URL; the per-URL transport updates it, failover reads it. */
export interface UrlHealth {
  label: string;
  /** Calls per JSON-RPC batch this URL accepts (1: unbatched). */
  batchSize: number;
  failures: number;
  downUntil: number;
  /** Set while the cooldown comes from a Retry-After header: the URL asked us to wait. */
  retryAfterUntil: number;
}
