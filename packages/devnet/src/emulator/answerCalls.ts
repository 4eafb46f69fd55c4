import type { Upstream } from "./createUpstream.js";
import {
  BLOCK_ARG_POSITION,
  blockOf,
  type Filter,
  HEAD_TAGS,
  hex,
  logBlock,
  type Outcome,
  type RpcCall,
  type RpcError,
} from "./emulatorRpc.js";
import { LAGGED_METHODS, type ProviderFaultName, type ProviderFaults } from "./providerFaults.js";
import { refuseLogCount } from "./refuseLogCount.js";
import { refuseLogRange } from "./refuseLogRange.js";
import { refusePrunedState } from "./refusePrunedState.js";

/** The faults in force for one request, and the heads of the up-to-date and the lagging node. */
interface RequestView {
  faults: ProviderFaults;
  lagged: ReadonlySet<string>;
  head: bigint;
  behind: bigint;
}

/** A call sent on to the node; `clamped`: the lagging node answers a range cut at its head. */
interface Forwarded {
  index: number;
  call: RpcCall;
  clamped: boolean;
}

/**
 * Answers every call of one HTTP request: lag rewrites and range refusals first, the rest in one
 * upstream request, then count refusals and the lag's filtering of what came back.
 */
export async function answerCalls(
  faults: ProviderFaults,
  upstream: Upstream,
  calls: readonly RpcCall[],
): Promise<{ outcomes: Outcome[]; status: number }> {
  const lag = faults.lag;
  const lagged = new Set(lag?.methods ?? LAGGED_METHODS);
  const needsHead = calls.some(
    (call) =>
      (lag !== undefined && lagged.has(String(call.method))) ||
      (call.method === "eth_getLogs" && (faults.logRange !== undefined || faults.logCount !== undefined)) ||
      (faults.prunedState !== undefined && BLOCK_ARG_POSITION[String(call.method)] !== undefined),
  );
  const head = needsHead ? await upstream.head() : 0n;
  const behind = lag === undefined ? head : head - BigInt(lag.blocks) > 0n ? head - BigInt(lag.blocks) : 0n;
  const view: RequestView = { faults, lagged, head, behind };
  const outcomes: (Outcome | undefined)[] = new Array(calls.length).fill(undefined);
  const forwarded: Forwarded[] = [];
  let status = 200;

  for (const [index, call] of calls.entries()) {
    const prepared = prepareCall(view, call);
    if ("outcome" in prepared) {
      outcomes[index] = prepared.outcome;
      if (prepared.status !== undefined && calls.length === 1) status = prepared.status;
      continue;
    }
    forwarded.push({ index, call: prepared.call, clamped: prepared.clamped });
  }

  if (forwarded.length > 0) {
    const body = forwarded.map(({ index, call }) => ({ jsonrpc: "2.0", ...call, id: index }));
    const answers = (await upstream.call(body)) as { id?: unknown; result?: unknown; error?: RpcError }[];
    if (!Array.isArray(answers)) throw new Error("upstream answered a batch with no array");
    const byId = new Map(answers.map((a) => [a.id, a]));
    for (const entry of forwarded) outcomes[entry.index] = settleReply(view, entry, byId.get(entry.index));
  }
  return { outcomes: outcomes.map((o) => o ?? { error: { code: -32603, message: "no answer" } }), status };
}

/**
 * One call before it reaches the node: answered here (a range refusal, or what the lagging node
 * says of a block above its head), or rewritten for the node to answer.
 */
function prepareCall(
  view: RequestView,
  call: RpcCall,
): { outcome: Outcome; status?: number } | { call: RpcCall; clamped: boolean } {
  const { faults, lagged, head, behind } = view;
  const lag = faults.lag;
  const method = String(call.method);
  const params = Array.isArray(call.params) ? [...(call.params as unknown[])] : [];
  const isLagged = lag !== undefined && lagged.has(method);
  const nodeHead = isLagged ? behind : head;
  let clamped = false;
  const pruned = refusePrunedState(faults, method, params, nodeHead);
  if (pruned !== undefined) return { outcome: { error: pruned, fault: "prunedState" } };
  if (method === "eth_getLogs") {
    const filter = { ...((params[0] ?? {}) as Filter) };
    const refused = refuseLogRange(faults, filter, nodeHead);
    if (refused !== undefined) {
      const outcome: Outcome = { error: refused.error, fault: "logRange" };
      return refused.status === undefined ? { outcome } : { outcome, status: refused.status };
    }
    if (isLagged && filter.blockHash === undefined) {
      const from = blockOf(filter.fromBlock ?? "latest", nodeHead);
      const to = blockOf(filter.toBlock ?? "latest", nodeHead);
      if (from !== undefined && to !== undefined && to > behind) {
        if ((lag.beyondHead ?? "empty") === "error") {
          return {
            outcome: {
              error: { code: -32602, message: "block range extends beyond current head block" },
              fault: "lag",
            },
          };
        }
        if (from > behind) return { outcome: { result: [], fault: "lag" } };
        filter.toBlock = hex(behind);
        clamped = true;
      } else if (to !== undefined && typeof filter.toBlock === "string" && HEAD_TAGS.has(filter.toBlock)) {
        filter.toBlock = hex(to);
      }
    }
    params[0] = filter;
  } else if (isLagged) {
    const position =
      method === "eth_getBlockByNumber" || method === "eth_getBlockReceipts" ? 0 : BLOCK_ARG_POSITION[method];
    if (position !== undefined) {
      const tag = params[position] ?? "latest";
      const block = blockOf(tag, behind);
      if (block !== undefined && block > behind) {
        return {
          outcome:
            position === 0
              ? { result: null, fault: "lag" }
              : { error: { code: -32000, message: "header not found" }, fault: "lag" },
        };
      }
      if (typeof tag === "string" && HEAD_TAGS.has(tag)) params[position] = hex(behind);
    }
  }
  return { call: { ...call, params }, clamped };
}

/** The node's reply to a forwarded call as the client gets it: the lag's filtering, then count refusals. */
function settleReply(
  view: RequestView,
  { call, clamped }: Forwarded,
  reply: { id?: unknown; result?: unknown; error?: RpcError } | undefined,
): Outcome {
  const { faults, lagged, head, behind } = view;
  const lag = faults.lag;
  if (reply === undefined) return { error: { code: -32603, message: "upstream gave no answer" } };
  if (reply.error !== undefined) return { error: reply.error };
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
    const first = Array.isArray(result) ? (result[0] as { blockNumber?: unknown } | undefined) : undefined;
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
    const refused = refuseLogCount(faults, filter, result as unknown[], isLagged ? behind : head);
    if (refused !== undefined) return { error: refused, fault: "logCount" };
  }
  return fault === undefined ? { result } : { result, fault };
}
