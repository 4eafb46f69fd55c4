import type { Logger } from "pino";
import { INTERNAL_MESSAGE, publicMessage } from "../api/publicMessage.js";
import {
  AnswerDeadlineError,
  MethodNotAllowedError,
  RateLimitedError,
  RequestBodyError,
  SwapgraphError,
} from "../errors.js";
import { countEvent } from "../lib/countEvent.js";

/** The wire form of a REST error. */
export interface RestError {
  status: number;
  /** The error's code (GraphQL answers carry it in `extensions.code`). */
  code: string;
  body: { error: string };
  headers: Record<string, string>;
}

// The framework's own refusals of a request body (before any handler), as swapgraph errors.
function fromFramework(error: unknown, path: string, bodyLimit: number): SwapgraphError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new RequestBodyError({ reason: "type", path });
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new RequestBodyError({ reason: "size", path, limitBytes: bodyLimit });
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new RequestBodyError({ reason: "empty", path });
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new RequestBodyError({ reason: "syntax", path });
    default:
      // JSON.parse of the body: a SyntaxError with a 400 status.
      return error instanceof SyntaxError && (error as { statusCode?: unknown }).statusCode === 400
        ? new RequestBodyError({ reason: "syntax", path })
        : undefined;
  }
}

/**
 * One line per refusal, never a stack: a refusal is an answer, not a failure of this code. What
 * the caller caused is debug; NOT_READY is a state (backfilling, halted, stale data) the indexer
 * already logs, and one line per request during an RPC outage would bury everything else; a
 * missed answer deadline is the server's to look into (warn); other 5xx (RPC, reorg, lock) error.
 */
function logRefusal(known: SwapgraphError, logger: Logger): void {
  const line = { code: known.code, status: known.status, err: known.message };
  if (known.status < 500 || known.code === "NOT_READY") logger.debug(line, "request refused");
  else if (known.code === "TIMEOUT") logger.warn(line, "request not answered in time");
  else
    logger.error(
      { ...line, ...(known.details === undefined ? {} : { details: known.details }) },
      "request failed",
    );
}

/**
 * The one REST error handler: a SwapgraphError (or a body the framework refused) keeps its
 * status and (public) message, anything else is a 500 with a masked message and is logged with
 * its stack. `path` and `bodyLimit` word the framework's refusals.
 */
export function toRestError(
  error: unknown,
  logger: Logger,
  request: { path: string; bodyLimit: number } = { path: "/", bodyLimit: 0 },
): RestError {
  const known =
    error instanceof SwapgraphError ? error : fromFramework(error, request.path, request.bodyLimit);
  if (known !== undefined) {
    logRefusal(known, logger);
    return {
      status: known.status,
      code: known.code,
      body: { error: publicMessage(known) },
      headers:
        known instanceof MethodNotAllowedError
          ? { Allow: known.allow }
          : known instanceof RateLimitedError || known instanceof AnswerDeadlineError
            ? { "Retry-After": String(known.retryAfterSeconds) }
            : known.code === "UNSUPPORTED_MEDIA_TYPE"
              ? { Accept: "application/json" }
              : {},
    };
  }
  // A client that hung up mid-request (node's "aborted", ECONNRESET): nobody reads this answer,
  // and a hang-up is the client's choice, not a failure of this server: one info line, a counter.
  if ((error as { code?: unknown } | null)?.code === "ECONNRESET") {
    countEvent("http_refusals", { reason: "client_closed" });
    logger.info({ path: request.path }, "client closed the connection mid-request");
    return {
      status: 400,
      code: "BAD_REQUEST",
      body: { error: "The request was not received whole." },
      headers: {},
    };
  }
  logger.error({ err: error }, "unexpected error");
  return { status: 500, code: "INTERNAL", body: { error: INTERNAL_MESSAGE }, headers: {} };
}
