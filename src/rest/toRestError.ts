import type { Logger } from "pino";
import { RateLimitedError, SwapgraphError } from "../errors.js";
import { INTERNAL_MESSAGE, publicMessage } from "../graphql/publicMessage.js";

/** The wire form of a REST error. */
export interface RestError {
  status: number;
  body: { error: string };
  headers: Record<string, string>;
}

/** Methods every non-GraphQL route answers. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS";

/**
 * The one REST error handler: a SwapgraphError keeps its status and (public) message, anything
 * else is a 500 with a masked message and is logged with its stack.
 */
export function toRestError(error: unknown, logger: Logger): RestError {
  if (error instanceof SwapgraphError) {
    // NOT_READY is a state (backfilling, halted, stale data) the indexer already logs: one error
    // line per request during an RPC outage would bury everything else.
    if (error.code === "NOT_READY") logger.debug({ err: error }, "request refused: not ready");
    else if (error instanceof RateLimitedError)
      logger.debug({ err: error.message }, "request refused: rate limit");
    else if (error.status >= 500) logger.error({ err: error }, "request failed");
    return {
      status: error.status,
      body: { error: publicMessage(error) },
      headers:
        error.code === "METHOD_NOT_ALLOWED"
          ? { Allow: ALLOWED_METHODS }
          : error instanceof RateLimitedError
            ? { "Retry-After": String(error.retryAfterSeconds) }
            : {},
    };
  }
  logger.error({ err: error }, "unexpected error");
  return { status: 500, body: { error: INTERNAL_MESSAGE }, headers: {} };
}
