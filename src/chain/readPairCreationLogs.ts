import { type Hex, numberToHex, padHex, toEventSelector } from "viem";
import type { Address, Hash, Pair } from "../domain/types.js";
import { pairCreatedEventAbi, poolCreatedEventAbi } from "./abis.js";
import type { RpcClient } from "./createRpcClient.js";

const PAIR_CREATED = toEventSelector(pairCreatedEventAbi);
const POOL_CREATED = toEventSelector(poolCreatedEventAbi);

interface RawLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex | null;
  transactionHash: Hash | null;
  blockTimestamp?: Hex | null;
}

/** A pool's creation log as found: its block, transaction, and the block's time when the node sent it. */
export interface CreationLog {
  blockNumber: bigint;
  txHash: Hash;
  /** Unix seconds, from the log's blockTimestamp (undefined when the node sends none). */
  timestamp: number | undefined;
}

const addressTopic = (address: Address): Hex => padHex(address, { size: 32 });

/** The pool a PairCreated (pair, index) or PoolCreated (tickSpacing, pool) log announces. */
function createdPool(log: RawLog): Address | undefined {
  const topic0 = log.topics[0]?.toLowerCase();
  const word = topic0 === PAIR_CREATED ? 0 : topic0 === POOL_CREATED ? 1 : undefined;
  if (word === undefined || log.data.length < 2 + 64 * (word + 1)) return undefined;
  return `0x${log.data.slice(2 + 64 * word + 24, 2 + 64 * (word + 1))}`.toLowerCase() as Address;
}

/**
 * The factory logs that created `pairs` (PairCreated of a Uniswap-V2-style factory, PoolCreated
 * of a V3 one) within [fromBlock, toBlock], with one eth_getLogs: the pairs' factories as
 * addresses, both topics, and token0 / token1 as the indexed topics, so the node answers from its
 * log index with the few creations of those token pairs (the cross product of the tokens asked, a
 * handful of logs), never a scan of the range's logs. Each match is taken by the pool address the
 * log names and the factory that sent it; a pair without a match is left out. Throws what the RPC
 * throws (a range refusal among them).
 */
export async function readPairCreationLogs(
  client: RpcClient,
  pairs: readonly Pair[],
  fromBlock: bigint,
  toBlock: bigint | "latest",
): Promise<Map<Address, CreationLog>> {
  const found = new Map<Address, CreationLog>();
  if (pairs.length === 0) return found;
  const wanted = new Map(pairs.map((pair) => [pair.address, pair]));
  const logs = (await client.request({
    method: "eth_getLogs",
    params: [
      {
        fromBlock: numberToHex(fromBlock),
        toBlock: toBlock === "latest" ? toBlock : numberToHex(toBlock),
        address: [...new Set(pairs.map((pair) => pair.factory.toLowerCase() as Address))],
        topics: [
          [PAIR_CREATED, POOL_CREATED],
          [...new Set(pairs.map((pair) => addressTopic(pair.token0)))],
          [...new Set(pairs.map((pair) => addressTopic(pair.token1)))],
        ],
      },
    ],
  })) as unknown as RawLog[];
  for (const log of logs) {
    const pool = createdPool(log);
    const pair = pool === undefined ? undefined : wanted.get(pool);
    if (pair === undefined || log.blockNumber === null || log.transactionHash === null) continue;
    if (log.address.toLowerCase() !== pair.factory.toLowerCase()) continue;
    const stamp = log.blockTimestamp;
    found.set(pair.address, {
      blockNumber: BigInt(log.blockNumber),
      txHash: log.transactionHash.toLowerCase() as Hash,
      timestamp: stamp === undefined || stamp === null ? undefined : Number(BigInt(stamp)),
    });
  }
  return found;
}
