import { type Hex, padHex, toEventSelector } from "viem";
import type { Address, Hash, Pair, PairCreation } from "../domain/types.js";
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
 * of a V3 one), found with one eth_getLogs over the whole chain (block 0 to latest: a pool exists,
 * so its creation is in there): the pairs' factories as
 * addresses, both topics, and token0 / token1 as the indexed topics, so the node answers from its
 * log index with the few creations of those token pairs (the cross product of the tokens asked,
 * a handful of logs), never a scan of the chain's logs. Each match is taken by the pool address
 * the log names; a block's time comes with the log where the node sends it (blockTimestamp), else
 * from its header (one eth_getBlockByNumber per such block). A pair without a match is left out.
 * Throws what the RPC throws (a provider that caps eth_getLogs ranges refuses the whole history).
 */
export async function findPairCreations(
  client: RpcClient,
  pairs: readonly Pair[],
): Promise<Map<Address, PairCreation>> {
  const found = new Map<Address, PairCreation>();
  if (pairs.length === 0) return found;
  const wanted = new Map(pairs.map((pair) => [pair.address, pair]));
  const logs = (await client.request({
    method: "eth_getLogs",
    params: [
      {
        fromBlock: "0x0",
        toBlock: "latest",
        address: [...new Set(pairs.map((pair) => pair.factory.toLowerCase() as Address))],
        topics: [
          [PAIR_CREATED, POOL_CREATED],
          [...new Set(pairs.map((pair) => addressTopic(pair.token0)))],
          [...new Set(pairs.map((pair) => addressTopic(pair.token1)))],
        ],
      },
    ],
  })) as unknown as RawLog[];
  const times = new Map<bigint, number>();
  const matches: { pool: Address; blockNumber: bigint; txHash: Hash }[] = [];
  for (const log of logs) {
    const pool = createdPool(log);
    const pair = pool === undefined ? undefined : wanted.get(pool);
    if (pair === undefined || log.blockNumber === null || log.transactionHash === null) continue;
    if (log.address.toLowerCase() !== pair.factory.toLowerCase()) continue;
    const blockNumber = BigInt(log.blockNumber);
    if (log.blockTimestamp !== undefined && log.blockTimestamp !== null) {
      times.set(blockNumber, Number(BigInt(log.blockTimestamp)));
    }
    matches.push({ pool: pair.address, blockNumber, txHash: log.transactionHash.toLowerCase() as Hash });
  }
  for (const { blockNumber } of matches) {
    if (times.has(blockNumber)) continue;
    const block = await client.getBlock({ blockNumber });
    times.set(blockNumber, Number(block.timestamp));
  }
  for (const { pool, blockNumber, txHash } of matches) {
    found.set(pool, { blockNumber, timestamp: times.get(blockNumber)!, txHash });
  }
  return found;
}
