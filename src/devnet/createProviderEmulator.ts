import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { DEFAULT_COMPUTE_UNITS as PROVIDER_COMPUTE_UNITS } from "../chain/readsWholeBlock.js";

/**
 * Compute units per call, as Alchemy priced them in its "Compute Unit Costs" table until 2024
 * (https://www.alchemy.com/docs/reference/compute-unit-costs): the order of magnitude every
 * hosted provider charges (Infura's credits, QuickNode's API credits and Chainstack's request
 * units rank the methods alike: eth_getLogs and block receipts dear, the head cheap). Alchemy's
 * 2025 table charges 20 for block, transaction and receipt reads and 60 for eth_getLogs.
 * Methods missing here cost DEFAULT_COMPUTE_UNITS. The indexer's cost model prices reads by the
 * same table (src/chain/readsWholeBlock.ts): one table, not two.
 */
export const COMMON_COMPUTE_UNITS: Readonly<Record<string, number>> = PROVIDER_COMPUTE_UNITS;

/** Compute units of a method COMMON_COMPUTE_UNITS does not list. */
export const DEFAULT_COMPUTE_UNITS = 20;

/** The data methods a lagging node answers by default (eth_blockNumber stays with the up-to-date one). */
export const LAGGED_METHODS: readonly string[] = [
  "eth_getLogs",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_getBlockReceipts",
  "eth_call",
];

/**
 * What a hosted provider does wrong, each switchable on its own. The error texts and codes are
 * the ones the providers were seen to send (see the styles).
 */
export interface ProviderFaults {
  /**
   * eth_getLogs over more than `blocks` blocks is refused. "quicknode": HTTP 413, -32614
   * "eth_getLogs is limited to a 10,000 range"; "infura": -32602 "range 12000 exceeds limit of
   * 10000"; "alchemy": -32600 "Under the Free tier plan, you can make eth_getLogs requests with up
   * to a 10 block range. Based on your parameters, this block range should work: [0x.., 0x..]. ..."
   */
  logRange?: { blocks: number; style?: "quicknode" | "infura" | "alchemy" };
  /**
   * eth_getLogs whose answer would hold more than `logs` logs is refused. "infura": -32005 "query
   * returned more than 10000 results. Try with this block range [0x.., 0x..]."; "alchemy": only
   * past a `freeBlocks` (default 2,000) block range, -32602 "Log response size exceeded. You can
   * make eth_getLogs requests with up to a 2K block range and no limit on the response size, or
   * you can request any block range with a cap of 10K logs in the response. Based on your
   * parameters and the response size limit, this block range should work: [0x.., 0x..]".
   */
  logCount?: { logs: number; style?: "infura" | "alchemy"; freeBlocks?: number };
  /**
   * A JSON-RPC batch of more than `calls` calls is refused whole (HTTP 200). "geth": a one-element
   * array, -32600 "batch too large"; "nodereal": one object, -32005 "batch size exceed limit 500".
   */
  batchSize?: { calls: number; style?: "geth" | "nodereal" };
  /**
   * Above `callsPerSecond` calls (each call of a batch counts; `burst` may go at once, default one
   * second's worth), the whole HTTP request gets 429 with Retry-After (default: the seconds until
   * it would pass, at least 1). "alchemy": code 429 "Your app has exceeded its compute units per
   * second capacity. ..."; "infura": -32005 "project ID request rate exceeded".
   */
  rateLimit?: {
    callsPerSecond: number;
    burst?: number;
    retryAfterSeconds?: number;
    style?: "alchemy" | "infura";
  };
  /**
   * A load balancer in front of two nodes: eth_blockNumber (and every method not in `methods`,
   * default LAGGED_METHODS) is answered by the up-to-date node, the data calls by one `blocks`
   * behind it. That node answers logs above its head with `[]` (or, `beyondHead: "error"`, with
   * geth's -32602 "block range extends beyond current head block"), blocks, transactions and
   * receipts above it with null, and eth_call at a block above it with -32000 "header not found";
   * "latest" is its own head.
   */
  lag?: { blocks: number; methods?: readonly string[]; beyondHead?: "empty" | "error" };
}

/** Which fault answered a call instead of the node (or changed the node's answer). */
export type ProviderFaultName = keyof ProviderFaults;

/** What one method cost. */
export interface MethodUsage {
  /** Calls the node answered (errors included; refused ones not). */
  calls: number;
  /** Of those, answered with a JSON-RPC error. */
  errors: number;
  /** Bytes of the answers (each call's own JSON in a batch). */
  bytes: number;
  computeUnits: number;
}

/** What went through the emulator since it started or was reset. */
export interface ProviderUsage {
  byMethod: Map<string, MethodUsage>;
  total: MethodUsage;
  /** HTTP requests received (a JSON-RPC batch is one). */
  httpRequests: number;
  /** JSON-RPC batches among them. */
  batches: number;
  /** Calls refused before reaching the node (rate limit, oversized batch): answered, not charged. */
  refused: number;
  /** Calls each fault answered or changed. */
  faults: Record<ProviderFaultName, number>;
}

/** A JSON-RPC HTTP endpoint in front of a node that counts, prices and misbehaves like a hosted provider. */
export interface ProviderEmulator {
  url: string;
  /** The faults in force (none by default). */
  readonly faults: ProviderFaults;
  /** Replaces the faults in force, e.g. to end a lag mid-run. */
  setFaults(faults: ProviderFaults): void;
  usage(): ProviderUsage;
  /** Forgets the usage counted so far (the rate limit's budget is kept). */
  reset(): void;
  close(): Promise<void>;
}

/** Options of createProviderEmulator. */
export interface ProviderEmulatorOptions {
  /** The node's JSON-RPC URL (an anvil). */
  upstream: string;
  faults?: ProviderFaults;
  /** Compute units by method (default COMMON_COMPUTE_UNITS). */
  computeUnits?: Readonly<Record<string, number>>;
  /** Compute units of a method the table misses (default DEFAULT_COMPUTE_UNITS). */
  defaultComputeUnits?: number;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
}

interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** One call's answer before it is written: a result or an error, and the fault behind it. */
type Outcome =
  | { result: unknown; fault?: ProviderFaultName }
  | { error: RpcError; fault?: ProviderFaultName };

/** A refusal of the whole HTTP request. */
interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
  fault: ProviderFaultName;
}

type Filter = { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };

const BLOCK_ARG_POSITION: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
};
const HEAD_TAGS = new Set(["latest", "pending", "safe", "finalized"]);

const hex = (n: bigint): string => `0x${n.toString(16)}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** "10K" for 10,000, "2K" for 2,000, else the plain number: Alchemy's wording. */
function shortCount(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}K` : String(n);
}

/** A block parameter as a number: tags resolve to `head` ("earliest" to 0). */
function blockOf(value: unknown, head: bigint): bigint | undefined {
  if (typeof value !== "string") return undefined;
  if (value === "earliest") return 0n;
  if (HEAD_TAGS.has(value)) return head;
  try {
    return BigInt(value);
  } catch {
    return undefined;
  }
}

function logBlock(log: unknown): bigint | undefined {
  const value = (log as { blockNumber?: unknown } | null)?.blockNumber;
  return typeof value === "string" ? BigInt(value) : undefined;
}

/**
 * Starts a JSON-RPC HTTP proxy on 127.0.0.1 in front of `upstream` that counts calls, answer
 * bytes and compute units by method (each call of a batch counted on its own), and injects the
 * switchable faults of hosted providers (ProviderFaults).
 */
export async function createProviderEmulator(options: ProviderEmulatorOptions): Promise<ProviderEmulator> {
  const prices = options.computeUnits ?? COMMON_COMPUTE_UNITS;
  const defaultPrice = options.defaultComputeUnits ?? DEFAULT_COMPUTE_UNITS;
  let faults: ProviderFaults = { ...(options.faults ?? {}) };
  const sockets = new Set<Socket>();
  const emptyFaults = (): Record<ProviderFaultName, number> => ({
    logRange: 0,
    logCount: 0,
    batchSize: 0,
    rateLimit: 0,
    lag: 0,
  });
  let usage: ProviderUsage;
  const resetUsage = () => {
    usage = {
      byMethod: new Map(),
      total: { calls: 0, errors: 0, bytes: 0, computeUnits: 0 },
      httpRequests: 0,
      batches: 0,
      refused: 0,
      faults: emptyFaults(),
    };
  };
  resetUsage();
  // The rate limit's token bucket: it refills continuously; a request takes one token per call.
  const bucket = { tokens: Number.NaN, at: performance.now() };

  const count = (method: string, bytes: number, isError: boolean) => {
    const entry = usage.byMethod.get(method) ?? { calls: 0, errors: 0, bytes: 0, computeUnits: 0 };
    const price = prices[method] ?? defaultPrice;
    for (const target of [entry, usage.total]) {
      target.calls++;
      target.bytes += bytes;
      target.computeUnits += price;
      if (isError) target.errors++;
    }
    usage.byMethod.set(method, entry);
  };

  async function upstream(body: unknown): Promise<unknown> {
    const response = await fetch(options.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`upstream answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
    }
  }

  async function upstreamHead(): Promise<bigint> {
    const answer = (await upstream({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })) as {
      result?: string;
    };
    if (typeof answer.result !== "string") throw new Error("upstream: no block number");
    return BigInt(answer.result);
  }

  /** The refusal of a whole request by the batch cap or the rate limit, if any. */
  function refusal(calls: readonly RpcCall[], batch: boolean): Refusal | undefined {
    const cap = faults.batchSize;
    if (batch && cap !== undefined && calls.length > cap.calls) {
      const firstId = calls.find((call) => call.id !== undefined)?.id ?? null;
      const body =
        (cap.style ?? "geth") === "geth"
          ? [{ jsonrpc: "2.0", id: firstId, error: { code: -32600, message: "batch too large" } }]
          : {
              jsonrpc: "2.0",
              id: firstId,
              error: { code: -32005, message: `batch size exceed limit ${cap.calls}` },
            };
      return { status: 200, headers: {}, body: JSON.stringify(body), fault: "batchSize" };
    }
    const limit = faults.rateLimit;
    if (limit === undefined) return undefined;
    const rate = limit.callsPerSecond;
    const capacity = Math.max(1, limit.burst ?? rate);
    const now = performance.now();
    bucket.tokens = Number.isNaN(bucket.tokens)
      ? capacity
      : Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    // A request larger than the whole budget passes when the bucket is full (and runs it into debt):
    // otherwise it could never pass.
    const need = Math.min(calls.length, capacity);
    if (bucket.tokens >= need) {
      bucket.tokens -= calls.length;
      return undefined;
    }
    const waitSeconds = limit.retryAfterSeconds ?? Math.max(1, Math.ceil((need - bucket.tokens) / rate));
    const id = batch ? null : (calls[0]?.id ?? null);
    const error =
      (limit.style ?? "alchemy") === "alchemy"
        ? {
            code: 429,
            message:
              "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput",
          }
        : {
            code: -32005,
            message: "project ID request rate exceeded",
            data: {
              see: "https://infura.io/dashboard",
              current_rps: rate + 1,
              allowed_rps: rate,
              backoff_seconds: waitSeconds,
            },
          };
    return {
      status: 429,
      headers: { "retry-after": String(waitSeconds) },
      body: JSON.stringify({ jsonrpc: "2.0", id, error }),
      fault: "rateLimit",
    };
  }

  /** The log-range refusal of an eth_getLogs call, checked on its parameters alone. */
  function rangeRefusal(filter: Filter, head: bigint): { error: RpcError; status?: number } | undefined {
    const cap = faults.logRange;
    if (cap === undefined || filter.blockHash !== undefined) return undefined;
    const from = blockOf(filter.fromBlock ?? "latest", head);
    const to = blockOf(filter.toBlock ?? "latest", head);
    if (from === undefined || to === undefined || to < from) return undefined;
    const span = Number(to - from + 1n);
    if (span <= cap.blocks) return undefined;
    const suggested = `[${hex(from)}, ${hex(from + BigInt(cap.blocks) - 1n)}]`;
    const style = cap.style ?? "quicknode";
    switch (style) {
      case "quicknode":
        return {
          error: {
            code: -32614,
            message: `eth_getLogs is limited to a ${cap.blocks.toLocaleString("en-US")} range`,
          },
          status: 413,
        };
      case "infura":
        return { error: { code: -32602, message: `range ${span} exceeds limit of ${cap.blocks}` } };
      case "alchemy":
        return {
          error: {
            code: -32600,
            message: `Under the Free tier plan, you can make eth_getLogs requests with up to a ${cap.blocks} block range. Based on your parameters, this block range should work: ${suggested}. Upgrade to PAYG for expanded block range.`,
          },
        };
      default: {
        const never: never = style;
        throw new Error(`unknown logRange style ${String(never)}`);
      }
    }
  }

  /** The log-count refusal of an eth_getLogs answer, if it holds too many logs. */
  function countRefusal(filter: Filter, logs: readonly unknown[], head: bigint): RpcError | undefined {
    const cap = faults.logCount;
    if (cap === undefined || logs.length <= cap.logs) return undefined;
    const from = blockOf(filter.fromBlock ?? "latest", head) ?? 0n;
    const to = blockOf(filter.toBlock ?? "latest", head) ?? head;
    const style = cap.style ?? "infura";
    const freeBlocks = cap.freeBlocks ?? 2000;
    if (style === "alchemy" && to - from + 1n <= BigInt(freeBlocks)) return undefined;
    // The widest range from `from` whose logs stay within the cap (at least one block).
    const blocks = logs.map(logBlock).filter((b): b is bigint => b !== undefined);
    blocks.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const over = blocks[cap.logs];
    let end = over === undefined ? to : over - 1n;
    if (end < from) end = from;
    if (style === "alchemy") {
      return {
        code: -32602,
        message: `Log response size exceeded. You can make eth_getLogs requests with up to a ${shortCount(freeBlocks)} block range and no limit on the response size, or you can request any block range with a cap of ${shortCount(cap.logs)} logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(from)}, ${hex(end)}]`,
      };
    }
    return {
      code: -32005,
      message: `query returned more than ${cap.logs} results. Try with this block range [${hex(from)}, ${hex(end)}].`,
      data: { from: hex(from), limit: cap.logs, to: hex(end) },
    };
  }

  /**
   * Answers every call of one HTTP request: lag rewrites and range refusals first, the rest in one
   * upstream request, then count refusals and the lag's filtering of what came back.
   */
  async function answer(calls: readonly RpcCall[]): Promise<{ outcomes: Outcome[]; status: number }> {
    const lag = faults.lag;
    const lagged = new Set(lag?.methods ?? LAGGED_METHODS);
    const needsHead = calls.some(
      (call) =>
        (lag !== undefined && lagged.has(String(call.method))) ||
        (call.method === "eth_getLogs" && (faults.logRange !== undefined || faults.logCount !== undefined)),
    );
    const head = needsHead ? await upstreamHead() : 0n;
    const behind = lag === undefined ? head : head - BigInt(lag.blocks) > 0n ? head - BigInt(lag.blocks) : 0n;
    const outcomes: (Outcome | undefined)[] = new Array(calls.length).fill(undefined);
    // `clamped`: the lagging node answers a range cut at its head.
    const forwarded: { index: number; call: RpcCall; clamped: boolean }[] = [];
    let status = 200;

    for (const [index, call] of calls.entries()) {
      const method = String(call.method);
      const params = Array.isArray(call.params) ? [...(call.params as unknown[])] : [];
      const isLagged = lag !== undefined && lagged.has(method);
      const nodeHead = isLagged ? behind : head;
      let clamped = false;
      if (method === "eth_getLogs") {
        const filter = { ...((params[0] ?? {}) as Filter) };
        const refused = rangeRefusal(filter, nodeHead);
        if (refused !== undefined) {
          outcomes[index] = { error: refused.error, fault: "logRange" };
          if (refused.status !== undefined && calls.length === 1) status = refused.status;
          continue;
        }
        if (isLagged && filter.blockHash === undefined) {
          const from = blockOf(filter.fromBlock ?? "latest", nodeHead);
          const to = blockOf(filter.toBlock ?? "latest", nodeHead);
          if (from !== undefined && to !== undefined && to > behind) {
            if ((lag.beyondHead ?? "empty") === "error") {
              outcomes[index] = {
                error: { code: -32602, message: "block range extends beyond current head block" },
                fault: "lag",
              };
              continue;
            }
            if (from > behind) {
              outcomes[index] = { result: [], fault: "lag" };
              continue;
            }
            filter.toBlock = hex(behind);
            clamped = true;
          } else if (
            to !== undefined &&
            typeof filter.toBlock === "string" &&
            HEAD_TAGS.has(filter.toBlock)
          ) {
            filter.toBlock = hex(to);
          }
        }
        params[0] = filter;
      } else if (isLagged) {
        const position =
          method === "eth_getBlockByNumber" || method === "eth_getBlockReceipts"
            ? 0
            : BLOCK_ARG_POSITION[method];
        if (position !== undefined) {
          const tag = params[position] ?? "latest";
          const block = blockOf(tag, behind);
          if (block !== undefined && block > behind) {
            outcomes[index] =
              position === 0
                ? { result: null, fault: "lag" }
                : { error: { code: -32000, message: "header not found" }, fault: "lag" };
            continue;
          }
          if (typeof tag === "string" && HEAD_TAGS.has(tag)) params[position] = hex(behind);
        }
      }
      forwarded.push({ index, call: { ...call, params }, clamped });
    }

    if (forwarded.length > 0) {
      const body = forwarded.map(({ index, call }) => ({ jsonrpc: "2.0", ...call, id: index }));
      const answers = (await upstream(body)) as { id?: unknown; result?: unknown; error?: RpcError }[];
      if (!Array.isArray(answers)) throw new Error("upstream answered a batch with no array");
      const byId = new Map(answers.map((a) => [a.id, a]));
      for (const { index, call, clamped } of forwarded) {
        const reply = byId.get(index);
        if (reply === undefined) {
          outcomes[index] = { error: { code: -32603, message: "upstream gave no answer" } };
          continue;
        }
        if (reply.error !== undefined) {
          outcomes[index] = { error: reply.error };
          continue;
        }
        let result = reply.result;
        let fault: ProviderFaultName | undefined = clamped ? "lag" : undefined;
        const method = String(call.method);
        const isLagged = lag !== undefined && lagged.has(method);
        if (isLagged && result !== null && typeof result === "object") {
          // Blocks, transactions and receipts the lagging node has not seen yet.
          const item = result as { number?: unknown; blockNumber?: unknown };
          const at = typeof item.number === "string" ? item.number : item.blockNumber;
          if (!Array.isArray(result) && typeof at === "string" && BigInt(at) > behind) {
            result = null;
            fault = "lag";
          }
          // A block's receipts asked by hash: the node answers null for a block it has not seen.
          const first = Array.isArray(result)
            ? (result[0] as { blockNumber?: unknown } | undefined)
            : undefined;
          if (
            method === "eth_getBlockReceipts" &&
            typeof first?.blockNumber === "string" &&
            BigInt(first.blockNumber) > behind
          ) {
            result = null;
            fault = "lag";
          }
        }
        if (method === "eth_getLogs" && Array.isArray(result)) {
          if (isLagged) {
            const seen = result.filter((log) => (logBlock(log) ?? 0n) <= behind);
            if (seen.length !== result.length) fault = "lag";
            result = seen;
          }
          const filter = ((call.params as unknown[])[0] ?? {}) as Filter;
          const refused = countRefusal(filter, result as unknown[], isLagged ? behind : head);
          if (refused !== undefined) {
            outcomes[index] = { error: refused, fault: "logCount" };
            continue;
          }
        }
        outcomes[index] = fault === undefined ? { result } : { result, fault };
      }
    }
    return { outcomes: outcomes.map((o) => o ?? { error: { code: -32603, message: "no answer" } }), status };
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const text = await readBody(req);
    usage.httpRequests++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
      return;
    }
    const batch = Array.isArray(parsed);
    if (batch) usage.batches++;
    const calls = (batch ? parsed : [parsed]) as RpcCall[];
    const refused = refusal(calls, batch);
    if (refused !== undefined) {
      usage.refused += calls.length;
      usage.faults[refused.fault] += calls.length;
      res.writeHead(refused.status, { "content-type": "application/json", ...refused.headers });
      res.end(refused.body);
      return;
    }
    const { outcomes, status } = await answer(calls);
    // Each answer is serialized once: its size is its method's bytes, the batch joins them.
    const parts = outcomes.map((outcome, i) => {
      const call = calls[i] as RpcCall;
      const isError = "error" in outcome;
      const json = JSON.stringify(
        isError
          ? { jsonrpc: "2.0", id: call.id ?? null, error: outcome.error }
          : { jsonrpc: "2.0", id: call.id ?? null, result: outcome.result },
      );
      count(typeof call.method === "string" ? call.method : "(invalid)", Buffer.byteLength(json), isError);
      if (outcome.fault !== undefined) usage.faults[outcome.fault]++;
      return json;
    });
    const body = batch ? `[${parts.join(",")}]` : (parts[0] ?? "");
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`provider emulator: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get faults() {
      return faults;
    },
    setFaults(next) {
      faults = { ...next };
      bucket.tokens = Number.NaN;
    },
    usage() {
      return {
        ...usage,
        byMethod: new Map([...usage.byMethod].map(([method, entry]) => [method, { ...entry }])),
        total: { ...usage.total },
        faults: { ...usage.faults },
      };
    },
    reset: resetUsage,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
