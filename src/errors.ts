/** The one error module: every expected error carries a code and the HTTP status it maps to. */

export type ErrorCode =
  | "BAD_REQUEST"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "TOO_SLOW"
  | "TIMEOUT"
  | "NOT_READY"
  | "CONFIG_INVALID"
  | "RPC_ERROR"
  | "DEEP_REORG"
  | "LOST_WRITER_LOCK"
  | "INTERNAL";

const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  TOO_SLOW: 429,
  TIMEOUT: 503,
  NOT_READY: 503,
  CONFIG_INVALID: 500,
  RPC_ERROR: 503,
  DEEP_REORG: 503,
  LOST_WRITER_LOCK: 503,
  INTERNAL: 500,
};

/** Base class of swapgraph's errors: a short message, a code, its HTTP status, optional details. */
export class SwapgraphError extends Error {
  override name = "SwapgraphError";
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = STATUS[code];
    this.details = options.details;
  }
}

/** A caller sent a bad or missing parameter (400). */
export class BadRequestError extends SwapgraphError {
  override name = "BadRequestError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("BAD_REQUEST", message, options);
  }
}

/** A well-formed request that has no answer, e.g. no liquidity route (422). */
export class UnprocessableError extends SwapgraphError {
  override name = "UnprocessableError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("UNPROCESSABLE", message, options);
  }
}

/** Data is not ready: backfill still running, network not configured or unreachable (503). */
export class NotReadyError extends SwapgraphError {
  override name = "NotReadyError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("NOT_READY", message, options);
  }
}

/** A subscriber that stopped reading its events: it is ended and may subscribe again. */
export class SlowSubscriberError extends SwapgraphError {
  override name = "SlowSubscriberError";
  constructor(behind: number) {
    super(
      "TOO_SLOW",
      `This subscription fell more than ${behind} events behind and was ended; subscribe again.`,
    );
  }
}

/** The configuration file or environment is invalid; the message says what and what was expected. */
export class ConfigError extends SwapgraphError {
  override name = "ConfigError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("CONFIG_INVALID", message, options);
  }
}

/** A JSON-RPC call failed after retries and failover. */
export class RpcError extends SwapgraphError {
  override name = "RpcError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("RPC_ERROR", message, options);
  }
}

/**
 * The node answered a block it should have as unknown: a balancer's node behind the others
 * (the head came from one ahead). A moment later, or another node, has it: not an outage.
 */
export class BlockNotServedError extends RpcError {
  override name = "BlockNotServedError";
}

/** A reorg deeper than the unfinalized window: the indexer halts instead of serving wrong data. */
export class DeepReorgError extends SwapgraphError {
  override name = "DeepReorgError";
  constructor(message: string, options: { details?: string; cause?: unknown } = {}) {
    super("DEEP_REORG", message, options);
  }
}

/** This process no longer holds a network's writer lock: another indexer may be writing. */
export class LostWriterLockError extends SwapgraphError {
  override name = "LostWriterLockError";
  constructor(network: string) {
    super("LOST_WRITER_LOCK", `Lost the writer lock of ${network}: the write was refused.`);
  }
}

/** A client sent more requests than its rate limit allows (429); it may retry after `retryAfterSeconds`. */
export class RateLimitedError extends SwapgraphError {
  override name = "RateLimitedError";
  readonly retryAfterSeconds: number;
  constructor(
    limitPerSecond: number,
    retryAfterSeconds: number,
    message = `Too many requests: at most ${limitPerSecond} per second per client; retry after ${retryAfterSeconds} s.`,
  ) {
    super("RATE_LIMITED", message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * A client over its GraphQL budget (429, like the rate limit): its operations would wait longer
 * than the budget allows for their query cost ("cost"), or too many of them wait already ("queue").
 */
export class ClientBudgetError extends RateLimitedError {
  override name = "ClientBudgetError";
  readonly reason: "cost" | "queue";
  constructor(args: {
    reason: "cost" | "queue";
    costPerSecond: number;
    queueLength: number;
    retryAfterSeconds: number;
  }) {
    super(
      args.costPerSecond,
      args.retryAfterSeconds,
      args.reason === "cost"
        ? `Query budget exceeded: at most ${args.costPerSecond} cost units per second per client; retry after ${args.retryAfterSeconds} s.`
        : `Too many operations waiting: at most ${args.queueLength} per client; retry after ${args.retryAfterSeconds} s.`,
    );
    this.reason = args.reason;
  }
}

// Conditions: one class each, its message built from its fields (as viem's errors are). Each
// extends the class of its HTTP meaning, so both edges translate it in their one place.

/** An address that is not an ERC-20 contract (no code, or no working decimals()). The indexer refuses its pairs for good. */
export class NotErc20Error extends BadRequestError {
  override name = "NotErc20Error";
  readonly address: string;
  readonly network: string;
  constructor(args: { address: string; network: string; reason: string }) {
    super(`${args.address} is not an ERC-20 token contract on ${args.network}.`, { details: args.reason });
    this.address = args.address;
    this.network = args.network;
  }
}

/**
 * A token contract whose metadata the API cannot serve: its decimals() answered a value outside
 * the range amounts and prices are computed for (400). Refused like a non-ERC-20.
 */
export class InvalidTokenMetadataError extends BadRequestError {
  override name = "InvalidTokenMetadataError";
  readonly address: string;
  readonly network: string;
  constructor(args: { address: string; network: string; decimals: number; maxDecimals: number }) {
    super(
      `Token ${args.address} on ${args.network} is not supported: its decimals() is ${args.decimals}, expected 0 to ${args.maxDecimals}.`,
    );
    this.address = args.address;
    this.network = args.network;
  }
}

/** Too many unknown token addresses are being looked up at once on a network (503; retry shortly). */
export class TokenLookupBusyError extends NotReadyError {
  override name = "TokenLookupBusyError";
  readonly network: string;
  constructor(network: string) {
    super(`Too many unknown token addresses are being looked up on ${network}; retry in a few seconds.`);
    this.network = network;
  }
}

/** A symbol that is not in the network's token list: the caller should use the contract address. */
export class UnknownSymbolError extends BadRequestError {
  override name = "UnknownSymbolError";
  readonly symbol: string;
  readonly network: string;
  constructor(args: { param: string; symbol: string; network: string }) {
    super(
      `${args.param} symbol ${JSON.stringify(args.symbol)} is not supported on ${args.network}; retry with the token's contract address.`,
    );
    this.symbol = args.symbol;
    this.network = args.network;
  }
}

/** No route of indexed pools connects the two tokens (422). */
export class NoRouteError extends UnprocessableError {
  override name = "NoRouteError";
  constructor(args: { sellSymbol: string; buySymbol: string; network: string }) {
    super(
      `No liquidity route from ${args.sellSymbol} to ${args.buySymbol} on ${args.network} in the indexed pools.`,
    );
  }
}

/** A network this server does not index (503: another server may). */
export class NetworkNotConfiguredError extends NotReadyError {
  override name = "NetworkNotConfiguredError";
  readonly network: string;
  constructor(network: string) {
    super(`Network ${network} is not configured on this server.`);
    this.network = network;
  }
}

/** A network whose backfill has not reached the head yet (503). */
export class NetworkIndexingError extends NotReadyError {
  override name = "NetworkIndexingError";
  readonly network: string;
  constructor(network: string) {
    super(`Network ${network} is still being indexed; retry in a few minutes.`);
    this.network = network;
  }
}

/** A halted network (503); `reason` is operator text and stays out of the public message. */
export class NetworkHaltedError extends NotReadyError {
  override name = "NetworkHaltedError";
  readonly network: string;
  constructor(network: string, reason?: string) {
    super(
      `Network ${network} is temporarily unavailable; retry later.`,
      reason === undefined ? {} : { details: reason },
    );
    this.network = network;
  }
}

/** Indexed data older than the network's freshness limit (503 until the indexer catches up). */
export class StaleDataError extends NotReadyError {
  override name = "StaleDataError";
  readonly network: string;
  readonly ageSeconds: number;
  readonly limitSeconds: number;
  constructor(args: { network: string; ageSeconds: number; limitSeconds: number; reason?: string }) {
    super(
      `Network ${args.network}'s indexed data is ${args.ageSeconds} seconds old, beyond its ${args.limitSeconds}-second freshness limit; retry later.`,
      args.reason === undefined ? {} : { details: args.reason },
    );
    this.network = args.network;
    this.ageSeconds = args.ageSeconds;
    this.limitSeconds = args.limitSeconds;
  }
}

/** A method a path does not take (405); `allow` lists the ones it does (the Allow header). */
export class MethodNotAllowedError extends SwapgraphError {
  override name = "MethodNotAllowedError";
  readonly allow: string;
  constructor(args: { method: string; allow: string }) {
    const method = args.method.length > 20 ? `${args.method.slice(0, 20)}...` : args.method;
    const use = args.allow
      .split(", ")
      .filter((name) => name !== "HEAD" && name !== "OPTIONS")
      .join(" or ");
    super("METHOD_NOT_ALLOWED", `Method ${method} is not allowed; use ${use}.`);
    this.allow = args.allow;
  }
}

/**
 * A request the server could not begin to answer within its deadline (503): the client may retry
 * in a moment; the work it started is dropped.
 */
export class AnswerDeadlineError extends SwapgraphError {
  override name = "AnswerDeadlineError";
  readonly retryAfterSeconds = 1;
  constructor(deadlineMs: number) {
    super(
      "TIMEOUT",
      `The server could not answer within ${deadlineMs < 1_000 ? `${deadlineMs} ms` : `${Math.round(deadlineMs / 1_000)} s`}; retry in a moment.`,
    );
  }
}

/** A request body the HTTP edge refused before any handler: wrong type, too large, not JSON (4xx). */
export class RequestBodyError extends SwapgraphError {
  override name = "RequestBodyError";
  constructor(args: { reason: "type" | "size" | "syntax" | "empty"; path: string; limitBytes?: number }) {
    super(
      args.reason === "type"
        ? "UNSUPPORTED_MEDIA_TYPE"
        : args.reason === "size"
          ? "PAYLOAD_TOO_LARGE"
          : "BAD_REQUEST",
      args.reason === "type"
        ? `POST ${args.path} takes a JSON body: Content-Type: application/json.`
        : args.reason === "size"
          ? `Request body too large: the limit is ${args.limitBytes ?? 0} bytes.`
          : args.reason === "empty"
            ? "The request body is empty; send a JSON object."
            : "The request body is not valid JSON.",
    );
  }
}
