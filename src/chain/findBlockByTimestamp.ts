import { RpcError } from "../errors.js";
import { errorText } from "./classifyRpcError.js";
import type { RpcClient } from "./createRpcClient.js";

/**
 * The first block whose timestamp is >= `timestamp` (unix seconds), by binary search over block
 * headers (about log2(head) calls); head + 1 when even the head is older.
 */
export async function findBlockByTimestamp(client: RpcClient, timestamp: number | bigint): Promise<bigint> {
  const target = BigInt(timestamp);
  const timestampOf = async (blockNumber: bigint | undefined) => {
    try {
      const block =
        blockNumber === undefined
          ? await client.getBlock({ blockTag: "latest" })
          : await client.getBlock({ blockNumber });
      return { number: block.number, timestamp: block.timestamp };
    } catch (error) {
      throw new RpcError(`eth_getBlockByNumber(${blockNumber ?? "latest"}) failed.`, {
        details: errorText(error),
        cause: error,
      });
    }
  };
  const head = await timestampOf(undefined);
  if (head.timestamp < target) return head.number + 1n;
  // Invariant: block `high` has timestamp >= target; every block below `low` is older.
  let low = 0n;
  let high = head.number;
  while (low < high) {
    const mid = (low + high) / 2n;
    const block = await timestampOf(mid);
    if (block.timestamp >= target) high = mid;
    else low = mid + 1n;
  }
  return high;
}
