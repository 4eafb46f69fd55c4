import type { Address } from "../domain/types.js";
import type { RpcClient } from "./createRpcClient.js";

/** Where a pool's creation block lies: in [low, high] (the pool exists at `high`, not before `low`). */
export interface BlockInterval {
  low: bigint;
  high: bigint;
}

/**
 * Narrows each pool's interval to at most `span` blocks by bisection on the pool's account nonce,
 * eth_getTransactionCount(pool, block): a contract account is created with nonce 1 (EIP-161, every
 * chain since 2016) and an address nobody holds the key of has nonce 0 before (even when sent coins
 * early); pools never self-destruct. So the creation block is the first block with nonce >= 1. The
 * nonce says what eth_getCode would, in a 40-byte answer instead of the pool's bytecode (10-25 KB).
 * Runs in lock-step rounds: each round asks every still-wide pool at once (a batching client sends
 * them as one JSON-RPC batch). The first round asks `span` blocks below the top: a pool created
 * that recently (one the indexer meets as it follows the head) is then done with one read; older
 * ones lose one read to it. Then bisection: ceil(log2(width / span)) rounds. Needs the state at
 * old blocks (an archive node); throws what the RPC throws (a pruned node's "missing trie node"
 * among them).
 */
export async function narrowCreationBlocks(
  client: RpcClient,
  intervals: ReadonlyMap<Address, BlockInterval>,
  span: number,
): Promise<void> {
  const width = BigInt(Math.max(1, span));
  for (let round = 0; ; round++) {
    const open = [...intervals].filter(([, interval]) => interval.high - interval.low + 1n > width);
    if (open.length === 0) return;
    await Promise.all(
      open.map(async ([address, interval]) => {
        const probe =
          round === 0 ? interval.high - width : interval.low + (interval.high - interval.low) / 2n;
        const nonce = await client.getTransactionCount({ address, blockNumber: probe });
        if (nonce > 0) interval.high = probe;
        else interval.low = probe + 1n;
      }),
    );
  }
}
