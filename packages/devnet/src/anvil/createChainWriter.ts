import { type Address, createPublicClient, type Hash, type Hex, http, rpcSchema, toHex } from "viem";

/** One transaction from an unlocked anvil account; gas is explicit so anvil never estimates. */
export interface TxRequest {
  from: Address;
  to?: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
  /** Normally assigned by the writer in send order; set it when a contract address depends on it. */
  nonce?: number;
}

type DevnetRpcSchema = [
  {
    Method: "eth_sendTransaction";
    Parameters: [
      {
        from: Address;
        to?: Address;
        data: Hex;
        value: Hex;
        gas: Hex;
        nonce: Hex;
        maxFeePerGas: Hex;
        maxPriorityFeePerGas: Hex;
      },
    ];
    ReturnType: Hash;
  },
  { Method: "evm_mine"; Parameters: [{ timestamp: number }]; ReturnType: string },
  { Method: "anvil_setBalance"; Parameters: [Address, Hex]; ReturnType: null },
  { Method: "txpool_status"; Parameters: []; ReturnType: { pending: Hex; queued: Hex } },
  { Method: "eth_accounts"; Parameters: []; ReturnType: Address[] },
];

/** Builds the viem client the devnet talks to anvil with (JSON-RPC batches of up to 1,000 calls). */
function createDevnetClient(rpcUrl: string) {
  return createPublicClient({
    // The block number changes with every evm_mine: never serve it from viem's cache.
    cacheTime: 0,
    transport: http(rpcUrl, { batch: { batchSize: 1000, wait: 0 }, timeout: 60_000, retryCount: 0 }),
    rpcSchema: rpcSchema<DevnetRpcSchema>(),
  });
}

/** The viem client type of a chain writer. */
export type DevnetClient = ReturnType<typeof createDevnetClient>;

/** Sends transactions from anvil's unlocked accounts with local nonces and mines blocks at chosen times. */
export interface ChainWriter {
  rpcUrl: string;
  client: DevnetClient;
  /** Timestamp of the last block this writer mined (0 before the first). */
  readonly lastTimestamp: number;
  /** Takes the next nonce of an account (for contract addresses known before sending). */
  reserveNonce(account: Address): number;
  /** Re-reads nonces from the chain, e.g. after someone else sent from these accounts. */
  syncNonces(accounts: readonly Address[]): Promise<void>;
  /**
   * Sends the transactions to the pool. Fees decrease by one wei per transaction in send order
   * until the next mine, so anvil's fee ordering mines them in exactly this order and a seed
   * reproduces the same chain.
   */
  send(txs: readonly TxRequest[]): Promise<Hash[]>;
  /** Mines one block with everything pending at `timestamp` (moved up to last + 1 if needed). */
  mine(timestamp: number): Promise<number>;
  /** Throws when transactions are still pending after a mine (a block overflowed). */
  assertPoolEmpty(): Promise<void>;
  /** Throws with the first failed transaction's hash when any receipt has status reverted. */
  assertSucceeded(hashes: readonly Hash[]): Promise<void>;
}

const BASE_PRIORITY_FEE = 1_000_000_000n;
const BASE_MAX_FEE = 100_000_000_000n;
// Fees fall by one wei per transaction sent since the last mine, across sends: anvil's fee
// ordering then keeps send order, and drops a sender's later nonce if it pays more than an earlier one.
const MAX_TXS_PER_BLOCK = 1_000_000;

/** Creates a writer for one anvil chain; nonces start at 0 unless synced. */
export function createChainWriter(rpcUrl: string): ChainWriter {
  const client = createDevnetClient(rpcUrl);
  const nonces = new Map<Address, number>();
  let lastTimestamp = 0;
  let sentSinceMine = 0;

  const reserveNonce = (account: Address): number => {
    const nonce = nonces.get(account) ?? 0;
    nonces.set(account, nonce + 1);
    return nonce;
  };

  return {
    rpcUrl,
    client,
    get lastTimestamp() {
      return lastTimestamp;
    },
    reserveNonce,
    async syncNonces(accounts) {
      const counts = await Promise.all(
        accounts.map((address) => client.getTransactionCount({ address, blockTag: "pending" })),
      );
      for (const [i, account] of accounts.entries()) nonces.set(account, counts[i] ?? 0);
    },
    async send(txs) {
      const results = await Promise.allSettled(
        txs.map((tx) => {
          const rank = BigInt(MAX_TXS_PER_BLOCK - sentSinceMine++);
          return client.request({
            method: "eth_sendTransaction",
            params: [
              {
                from: tx.from,
                ...(tx.to === undefined ? {} : { to: tx.to }),
                data: tx.data,
                value: toHex(tx.value ?? 0n),
                gas: toHex(tx.gas),
                nonce: toHex(tx.nonce ?? reserveNonce(tx.from)),
                maxFeePerGas: toHex(BASE_MAX_FEE + rank),
                maxPriorityFeePerGas: toHex(BASE_PRIORITY_FEE + rank),
              },
            ],
          });
        }),
      );
      const failed = results.find((r) => r.status === "rejected");
      if (failed !== undefined) {
        throw new Error(`devnet: a transaction was refused: ${String(failed.reason)}`, {
          cause: failed.reason,
        });
      }
      return results.map((r) => (r as PromiseFulfilledResult<Hash>).value);
    },
    async mine(timestamp) {
      const at = Math.max(Math.floor(timestamp), lastTimestamp + 1);
      await client.request({ method: "evm_mine", params: [{ timestamp: at }] });
      lastTimestamp = at;
      sentSinceMine = 0;
      return at;
    },
    async assertPoolEmpty() {
      const status = await client.request({ method: "txpool_status", params: [] });
      if (BigInt(status.pending) + BigInt(status.queued) > 0n) {
        throw new Error(
          `devnet: ${BigInt(status.pending)} pending and ${BigInt(status.queued)} queued transactions were not mined`,
        );
      }
    },
    async assertSucceeded(hashes) {
      const receipts = await Promise.all(hashes.map((hash) => client.getTransactionReceipt({ hash })));
      const failed = receipts.find((r) => r.status !== "success");
      if (failed !== undefined) {
        throw new Error(
          `devnet: transaction ${failed.transactionHash} reverted (block ${failed.blockNumber})`,
        );
      }
    },
  };
}
