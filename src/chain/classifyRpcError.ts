import { BaseError, HttpRequestError, ResponseBodyTooLargeError, RpcRequestError, TimeoutError } from "viem";

/**
 * How a failed JSON-RPC call should be handled:
 * - "range": eth_getLogs asked too much (too many blocks, results or bytes): shrink the range.
 * - "revert": the call reached the EVM and failed there (reverted, ran out of gas, hit an invalid
 *   opcode, or the node's execution time limit): retrying cannot help, it is an answer.
 * - "fatal": the request itself is wrong or unsupported: retrying cannot help.
 * - "transient": network trouble, rate limits, overload: retry with backoff, fail over.
 */
export type RpcErrorKind = "range" | "revert" | "fatal" | "transient";

// Providers word their eth_getLogs limits in many ways (Infura, Alchemy, QuickNode, BSC, Ankr,
// Cloudflare, Chainstack, Erigon, Geth); all of them mean "ask for fewer blocks".
const RANGE_PATTERNS = [
  /block range/i,
  /range (is )?too (large|wide|big)/i,
  /range exceeds/i,
  /exceed(s|ed)? (the )?max(imum)? (block )?range/i,
  /max(imum)? range/i,
  /more than \d[\d,]* (results|logs)/i,
  /too many (results|logs|blocks)/i,
  /log response size exceeded/i,
  /response (size|body)? ?(is )?(too large|too big|exceeded)/i,
  /limited to a? ?[\d,]+ ?(block)? ?range/i,
  // Infura since 2025: -32602 "range 1000000 exceeds limit of 10000".
  /range \d+ exceeds (the )?limit/i,
  /query timeout/i,
  /context deadline exceeded/i,
];

// A node behind the head answers a range past its head so (geth >= 1.15; Avalanche-style nodes):
// a moment later, or another node behind the balancer, has it. Shrinking the range cannot help.
const BEHIND_HEAD_PATTERN =
  /beyond (the )?current head|after last accepted block|requested block \d+ after last|block not (yet )?(found|available)/i;
// A JSON-RPC batch over the provider's cap (geth: -32600 "batch too large"; NodeReal: -32005
// "batch size exceed limit 500"; jsonrpsee and others "exceeded max limit of N", "too many batch"...).
const BATCH_PATTERNS = [
  /batch (request )?(is )?too (large|big)/i,
  /batch (size|limit) (exceed|exceeded|too large)/i,
  /exceed(s|ed)? (the )?max(imum)? batch/i,
  /max(imum)? batch size/i,
  /too many (requests|calls) in (a |the )?batch/i,
];
// Rate limits in providers' words (429 is the usual status, but not every provider sends it):
// Alchemy's compute units, Infura's -32005 "project ID request rate exceeded", BSC's public
// nodes' "limit exceeded", Ankr's and others' "request limit reached", QuickNode's credits.
const RATE_LIMIT_PATTERN =
  /rate limit|request rate exceeded|too many requests|exceeded its compute units|compute units per second|throughput limit|capacity exceeded|ran out of cu|^limit exceeded|request limit (exceeded|reached)|daily request count exceeded|credits? (limit )?exceeded/im;
// EIP-1474's "limit exceeded": Infura and others send it for their rate limits, but also for a
// log range or batch over the cap (those are told apart by their words first).
const LIMIT_EXCEEDED_CODE = -32005;

const REVERT_PATTERN = /revert/i;
// Execution failures other than a revert, as geth/erigon ("out of gas", "invalid opcode",
// "execution aborted (timeout = 5s)"), nethermind ("OutOfGas") and anvil/reth ("EVM error
// OutOfGas") word them. They are the contract's answer, not the URL's fault: a gas-burning token
// must not be retried nor mark the URL unhealthy.
const EXECUTION_PATTERN =
  /out ?of ?gas|EVM error|invalid opcode|invalid jump|stack (underflow|overflow)|execution aborted|write protection/i;
// A node without the historical state (not an archive node) will never have it: no retry.
const NO_STATE_PATTERN =
  /missing trie node|state (is )?not available|historical state|pruned|state histories/i;

// JSON-RPC codes that say the request is wrong or unsupported, so a retry gets the same answer.
const FATAL_CODES = new Set([-32700, -32600, -32601, -32602, -32004, -32006]);
const FATAL_STATUSES = new Set([400, 401, 404, 405]);

/** Every message text along an error's cause chain, for pattern matching. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof BaseError) parts.push(current.shortMessage, current.details);
    else if (current instanceof Error) parts.push(current.message);
    else if (typeof current === "string") parts.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.filter((part) => part !== "").join(" | ");
}

function findInChain<T>(error: unknown, match: (e: unknown) => e is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (match(current)) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/** The HTTP-level error (status, headers) in an error's cause chain, if any. */
export function findHttpError(error: unknown): HttpRequestError | RpcRequestError | undefined {
  return findInChain(
    error,
    (e): e is HttpRequestError | RpcRequestError =>
      e instanceof HttpRequestError || e instanceof RpcRequestError,
  );
}

// The connection closed under a request before any answer: the other end closed an idle
// keep-alive connection just as the request went out on it (undici's "other side closed",
// UND_ERR_SOCKET; ECONNRESET, EPIPE). Nothing was answered; a new connection usually is.
const DROPPED_CODES = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);

/** True when a call failed because its connection closed before any answer (see DROPPED_CODES). */
export function isDroppedConnection(error: unknown): boolean {
  return (
    findInChain(
      error,
      (e): e is { code: string } =>
        typeof e === "object" &&
        e !== null &&
        "code" in e &&
        typeof (e as { code: unknown }).code === "string" &&
        DROPPED_CODES.has((e as { code: string }).code),
    ) !== undefined
  );
}

function rpcCode(error: unknown): number | undefined {
  const withCode = findInChain(
    error,
    (e): e is { code: number } =>
      typeof e === "object" && e !== null && "code" in e && typeof (e as { code: unknown }).code === "number",
  );
  return withCode?.code;
}

function isAbort(error: unknown): boolean {
  return findInChain(error, (e): e is Error => e instanceof Error && e.name === "AbortError") !== undefined;
}

/** Classifies a failed call of `method` (see RpcErrorKind). */
export function classifyRpcError(error: unknown, method?: string): RpcErrorKind {
  if (isAbort(error)) return "fatal";
  const getLogs = method === undefined || method === "eth_getLogs";
  const text = errorText(error);
  const status = findHttpError(error)?.status;
  const tooLarge = findInChain(
    error,
    (e): e is ResponseBodyTooLargeError => e instanceof ResponseBodyTooLargeError,
  );
  // Said of the batch, not of this call: the caller splits the batch (see isBatchTooLarge).
  if (isBatchTooLarge(error)) return "transient";
  if (BEHIND_HEAD_PATTERN.test(text)) return "transient";
  if (getLogs) {
    if (tooLarge !== undefined || status === 413) return "range";
    if (RANGE_PATTERNS.some((pattern) => pattern.test(text))) return "range";
    // A provider that cannot answer a range in time will not answer it on a retry either.
    if (method === "eth_getLogs" && findInChain(error, (e): e is TimeoutError => e instanceof TimeoutError)) {
      return "range";
    }
  }
  if (tooLarge !== undefined) return "fatal";
  const code = rpcCode(error);
  if (code === 3 || REVERT_PATTERN.test(text) || EXECUTION_PATTERN.test(text)) return "revert";
  if (code !== undefined && FATAL_CODES.has(code)) return "fatal";
  if (NO_STATE_PATTERN.test(text)) return "fatal";
  if (status !== undefined && FATAL_STATUSES.has(status)) return "fatal";
  return "transient";
}

/**
 * A block count a provider suggested in its range error ("Try with this block range
 * [0x10, 0x2f]", "max range: 1000"), if it named one.
 */
export function suggestedRange(error: unknown): number | undefined {
  const text = errorText(error);
  const pair = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(text);
  if (pair?.[1] !== undefined && pair[2] !== undefined) {
    const span = Number(BigInt(pair[2]) - BigInt(pair[1])) + 1;
    if (span > 0) return span;
  }
  const limit =
    /(?:max(?:imum)? (?:block )?range|range limit|limited to a?|exceeds (?:the )?limit)\s*(?:is|of|:)?\s*([\d,]+)/i.exec(
      text,
    );
  if (limit?.[1] !== undefined) {
    const blocks = Number(limit[1].replaceAll(",", ""));
    if (Number.isSafeInteger(blocks) && blocks > 0) return blocks;
  }
  return undefined;
}

/**
 * True when the node has no state at the block asked (not an archive node: geth's "missing trie
 * node", "historical state ... is not available"; erigon's and others' "pruned"): no URL of the
 * same kind will ever have it.
 */
export function isMissingState(error: unknown): boolean {
  return NO_STATE_PATTERN.test(errorText(error));
}

/** The block range to ask next after `error` refused `asked` blocks: what the provider named, else half. */
export function shrunkRange(error: unknown, asked: number): number {
  const hint = suggestedRange(error);
  return hint !== undefined && hint < asked ? hint : Math.max(1, Math.floor(asked / 2));
}

/** True when the provider refused a JSON-RPC batch for its size (the calls in it are fine on their own). */
export function isBatchTooLarge(error: unknown): boolean {
  const text = errorText(error);
  return BATCH_PATTERNS.some((pattern) => pattern.test(text));
}

/** The batch size a provider named in its refusal ("batch size exceed limit 500"), if it named one. */
export function suggestedBatchSize(error: unknown): number | undefined {
  const match = /(?:limit|max(?:imum)?(?: batch size)?|at most)(?: of| is|:)?\s*(\d+)/i.exec(
    errorText(error),
  );
  const size = match?.[1] === undefined ? undefined : Number(match[1]);
  return size !== undefined && Number.isSafeInteger(size) && size > 0 ? size : undefined;
}

/** True when the provider said this call went over its rate limit (HTTP 429 or its words for it). */
export function isRateLimited(error: unknown): boolean {
  const status = findHttpError(error)?.status;
  if (status === 429) return true;
  const text = errorText(error);
  if (isBatchTooLarge(error) || RANGE_PATTERNS.some((pattern) => pattern.test(text))) return false;
  const code = rpcCode(error);
  return code === 429 || code === LIMIT_EXCEEDED_CODE || RATE_LIMIT_PATTERN.test(text);
}
