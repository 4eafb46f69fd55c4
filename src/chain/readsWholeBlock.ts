import type { RpcCostModel } from "../domain/types.js";
import type { RpcTimeSample } from "./createRpcTimings.js";

/**
 * Compute units per call of the methods swapgraph sends, at common providers' prices (the order
 * of magnitude Alchemy, QuickNode and others publish; providers differ by a few units). Used as
 * the default cost table; `rpc.computeUnits` in the configuration overrides entries.
 * @internal exported for tests: the devnet's provider emulator charges by the same table.
 */
export const DEFAULT_COMPUTE_UNITS: Readonly<Record<string, number>> = {
  eth_getLogs: 75,
  eth_getBlockByNumber: 16,
  eth_getTransactionByHash: 17,
  eth_getTransactionReceipt: 15,
  eth_call: 26,
  eth_getTransactionCount: 26,
  eth_blockNumber: 10,
  eth_chainId: 0,
  eth_getBlockReceipts: 500,
};

/** What the choice needs to know: the model, the prices, and what blocks of this chain weigh. */
export interface SenderReadCosts {
  model: RpcCostModel;
  /** Compute units per method (missing methods cost DEFAULT_COMPUTE_UNITS', then 20). */
  computeUnits?: Readonly<Record<string, number>>;
  /** Transactions per block seen so far on this chain (a running average; a guess before any). */
  transactionsPerBlock: number;
  /** The "time" model's measurements of the client (before any, it chooses as "bytes" does). */
  time?: RpcTimeSample | undefined;
}

// Bytes of JSON-RPC answers, as measured on anvil and BSC-like blocks: a transaction object is
// about 550 bytes whether alone or inside a block, a header about 1,000, and each answer of a
// batch carries about 60 bytes of envelope ({"jsonrpc","id","result"}). By bytes a block is
// worth reading whole only when nearly all its transactions are trades.
const TRANSACTION_BYTES = 550;
const HEADER_BYTES = 1_000;
const ENVELOPE_BYTES = 60;

/** Bytes of the answers each way would bring (measured sizes where the client has them). */
function answerBytes(trades: number, needsHeader: boolean, costs: SenderReadCosts) {
  const measured = costs.time?.answerBytes ?? {};
  const transaction = measured.eth_getTransactionByHash ?? TRANSACTION_BYTES + ENVELOPE_BYTES;
  const header = measured.eth_getBlockByNumber ?? HEADER_BYTES;
  return {
    block:
      measured["eth_getBlockByNumber+transactions"] ??
      HEADER_BYTES + costs.transactionsPerBlock * TRANSACTION_BYTES,
    byHash: trades * transaction + (needsHeader ? header : 0),
  };
}

function unitsOf(costs: SenderReadCosts, method: string): number {
  return costs.computeUnits?.[method] ?? DEFAULT_COMPUTE_UNITS[method] ?? 20;
}

/**
 * Whether to learn the signers of a block's `trades` trade transactions by reading the block
 * with its transactions (one call, which also brings the header) rather than each transaction
 * by hash. `needsHeader`: the block's header is read anyway (hash links, timestamp), so the
 * whole block replaces that read too. By time, each way costs its round trips and its bytes at
 * the measured throughput: a whole block is a request of its own (sent alone, see
 * createUrlTransport), transactions by hash cost one round trip each, or none of their own when
 * the client batches (they ride in the batch of the range's other reads). Pure.
 */
export function readsWholeBlock(trades: number, needsHeader: boolean, costs: SenderReadCosts): boolean {
  if (trades <= 0) return false;
  switch (costs.model) {
    case "calls":
      return trades + (needsHeader ? 1 : 0) > 1;
    case "computeUnits": {
      const block = unitsOf(costs, "eth_getBlockByNumber");
      const byHash = trades * unitsOf(costs, "eth_getTransactionByHash") + (needsHeader ? block : 0);
      return block <= byHash;
    }
    case "bytes": {
      const bytes = answerBytes(trades, needsHeader, { ...costs, time: undefined });
      return bytes.block <= bytes.byHash;
    }
    case "time": {
      const time = costs.time;
      const bytes = answerBytes(trades, needsHeader, costs);
      if (time === undefined) return bytes.block <= bytes.byHash;
      const byHashTrips = time.batched ? 0 : trades + (needsHeader ? 1 : 0);
      const block = time.latencyMs + bytes.block * time.msPerByte;
      const byHash = byHashTrips * time.latencyMs + bytes.byHash * time.msPerByte;
      return block <= byHash;
    }
    default: {
      const unreachable: never = costs.model;
      return unreachable;
    }
  }
}
