import type { ProviderFaultName } from "./providerFaults.js";

/** One JSON-RPC call as received. */
export interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** A JSON-RPC error object. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** One call's answer before it is written: a result or an error, and the fault behind it. */
export type Outcome =
  | { result: unknown; fault?: ProviderFaultName }
  | { error: RpcError; fault?: ProviderFaultName };

/** A refusal of the whole HTTP request. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
  fault: ProviderFaultName;
}

/** eth_getLogs' filter, as far as the faults read it. */
export type Filter = { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };

/** Where the block parameter is, by method (eth_getBlockByNumber and eth_getBlockReceipts: 0). */
export const BLOCK_ARG_POSITION: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
};
/** Block tags that mean the node's head. */
export const HEAD_TAGS = new Set(["latest", "pending", "safe", "finalized"]);

/** A quantity as JSON-RPC writes it. */
export function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}

/** A block parameter as a number: tags resolve to `head` ("earliest" to 0). */
export function blockOf(value: unknown, head: bigint): bigint | undefined {
  if (typeof value !== "string") return undefined;
  if (value === "earliest") return 0n;
  if (HEAD_TAGS.has(value)) return head;
  try {
    return BigInt(value);
  } catch {
    return undefined;
  }
}

/** The block number of a log as the node returned it. */
export function logBlock(log: unknown): bigint | undefined {
  const value = (log as { blockNumber?: unknown } | null)?.blockNumber;
  return typeof value === "string" ? BigInt(value) : undefined;
}
