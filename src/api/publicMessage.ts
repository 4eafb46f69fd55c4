import type { SwapgraphError } from "../errors.js";

/** The message shown for every error whose own text may name internals. */
export const INTERNAL_MESSAGE = "Internal server error.";
const UNAVAILABLE_MESSAGE = "The data source is temporarily unavailable; retry later.";

/**
 * What a caller may read of an error: request errors are written for callers, but RPC,
 * reorg and configuration errors can name URLs, keys or internals, so they get a fixed text.
 */
export function publicMessage(error: SwapgraphError): string {
  switch (error.code) {
    case "BAD_REQUEST":
    case "NOT_FOUND":
    case "METHOD_NOT_ALLOWED":
    case "PAYLOAD_TOO_LARGE":
    case "UNSUPPORTED_MEDIA_TYPE":
    case "UNPROCESSABLE":
    case "NOT_READY":
    case "RATE_LIMITED":
    case "TOO_SLOW":
    case "TIMEOUT":
      return error.message;
    case "RPC_ERROR":
    case "DEEP_REORG":
    case "LOST_WRITER_LOCK":
      return UNAVAILABLE_MESSAGE;
    case "CONFIG_INVALID":
    case "INTERNAL":
      return INTERNAL_MESSAGE;
    default: {
      const unreachable: never = error.code;
      return unreachable;
    }
  }
}
