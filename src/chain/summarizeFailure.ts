import { BaseError, HttpRequestError, RpcRequestError, TimeoutError } from "viem";
import { redactSecrets } from "../config/redactSecrets.js";
import { SwapgraphError } from "../errors.js";
import { RpcDeadlineError, UrlCoolingDownError } from "./rpcErrors.js";

const MAX_LENGTH = 200;

function clip(text: string): string {
  const safe = redactSecrets(text.replace(/\s+/g, " ").trim(), () => "[url]");
  return safe.length <= MAX_LENGTH ? safe : `${safe.slice(0, MAX_LENGTH - 1)}…`;
}

// What went wrong with the RPC, in a few words: never viem's full message, which carries the
// URL (API keys), the request body and viem's version.
function rpcReason(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  if (error instanceof RpcDeadlineError) {
    const last = error.cause === undefined ? undefined : rpcReason(error.cause);
    return `no answer within the call's deadline${last === undefined ? "" : ` (last attempt: ${last})`}`;
  }
  if (error instanceof UrlCoolingDownError) return "every URL is cooling down after failures";
  if (error.walk((e) => e instanceof TimeoutError) !== null) return "the request timed out";
  const rpc = error.walk((e) => e instanceof RpcRequestError) as RpcRequestError | null;
  if (rpc !== null) return `JSON-RPC error ${rpc.code}`;
  const http = error.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  if (http !== null) return http.status === undefined ? "the connection failed" : `HTTP ${http.status}`;
  const coded = error.walk((e) => typeof (e as { code?: unknown }).code === "number") as {
    code?: number;
  } | null;
  if (coded?.code !== undefined) return `JSON-RPC error ${coded.code}`;
  return clip(error.shortMessage);
}

/**
 * A short, public description of why indexing failed, for a network's status (GraphQL
 * `status.error`): swapgraph's own message plus the RPC reason in a few words, with no URL,
 * request body or library version; anything else says to look at the logs.
 */
export function summarizeFailure(error: unknown): string {
  if (error instanceof SwapgraphError) {
    const reason = rpcReason(error.cause);
    const text = reason === undefined ? error.message : `${error.message.replace(/\.$/, "")} (${reason}).`;
    return clip(error.code === "RPC_ERROR" ? `RPC unavailable: ${text}` : text);
  }
  const reason = rpcReason(error);
  if (reason !== undefined) return `RPC unavailable: ${reason}`;
  return "Indexing failed (the logs say why).";
}
