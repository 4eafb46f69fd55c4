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
  /**
   * A full node, not an archive one: a state read (eth_getCode, eth_call, eth_getBalance,
   * eth_getStorageAt, eth_getTransactionCount) at a block more than `blocks` below the node's head
   * gets geth's -32000 "missing trie node <root> (path )" (geth keeps 128 blocks' state).
   */
  prunedState?: { blocks: number };
}

/** Which fault answered a call instead of the node (or changed the node's answer). */
export type ProviderFaultName = keyof ProviderFaults;
