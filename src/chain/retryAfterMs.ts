import { findHttpError } from "./classifyRpcError.js";
import { UrlCoolingDownError } from "./rpcErrors.js";

/** Milliseconds a Retry-After header (seconds or HTTP date) asks for, if the error carries one. */
export function retryAfterMs(error: unknown): number | undefined {
  if (error instanceof UrlCoolingDownError) return error.retryAfterMs;
  const header = findHttpError(error)?.headers?.get("Retry-After");
  if (header === undefined || header === null || header.trim() === "") return undefined;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
