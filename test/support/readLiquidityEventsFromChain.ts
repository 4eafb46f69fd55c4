import { createPublicClient, http, parseAbi } from "viem";
import type { NetworkConfig } from "../../src/config/types.js";
import type { Address, Hash } from "../../src/domain/types.js";

/** A V2 pair's Mint or Burn as the chain alone tells it, with what the API documents for it. */
export interface ChainLiquidityEvent {
  txHash: Hash;
  txIndex: number;
  logIndex: number;
  blockNumber: bigint;
  timestamp: number;
  pool: Address;
  token0: Address;
  token1: Address;
  type: "mint" | "burn";
  /** The transaction's signer. */
  sender: Address;
  /** Mint: the event's sender (the caller of mint); Burn: the event's `to`. */
  owner: Address;
  amount0: bigint;
  amount1: bigint;
}

/** A pair's Sync, to rebuild its reserves after any transaction. */
export interface ChainSync {
  pair: Address;
  blockNumber: bigint;
  txIndex: number;
  logIndex: number;
  reserve0: bigint;
  reserve1: bigint;
}

const abi = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256 allPairsLength)",
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
]);
const lower = <T extends string>(value: string) => value.toLowerCase() as T;

/**
 * Every Mint and Burn of the pairs the network's V2 factories created (PairCreated), in chain
 * order, with each transaction's signer; and every Sync of those pairs. Read with eth_getLogs and
 * eth_getTransaction only: nothing of the indexer.
 */
export async function readLiquidityEventsFromChain(
  config: NetworkConfig,
): Promise<{ events: ChainLiquidityEvent[]; syncs: ChainSync[] }> {
  const client = createPublicClient({ transport: http(config.rpcUrls[0], { retryCount: 0 }) });
  const pairs = new Map<Address, { token0: Address; token1: Address }>();
  for (const dex of config.dexes.filter((d) => d.kind === "uniswap-v2")) {
    const created = await client.getLogs({ address: dex.factory, event: abi[0], fromBlock: 0n });
    for (const log of created) {
      pairs.set(lower(log.args.pair!), { token0: lower(log.args.token0!), token1: lower(log.args.token1!) });
    }
  }
  const address = [...pairs.keys()];
  const logs = await client.getLogs({ address, events: [abi[1], abi[2], abi[3]], fromBlock: 0n });
  const senders = new Map<Hash, Address>();
  const timestamps = new Map<bigint, number>();
  const events: ChainLiquidityEvent[] = [];
  const syncs: ChainSync[] = [];
  for (const log of logs) {
    const position = {
      blockNumber: log.blockNumber,
      txIndex: log.transactionIndex,
      logIndex: log.logIndex,
    };
    const pool = lower<Address>(log.address);
    if (log.eventName === "Sync") {
      syncs.push({ pair: pool, ...position, reserve0: log.args.reserve0!, reserve1: log.args.reserve1! });
      continue;
    }
    const txHash = lower<Hash>(log.transactionHash);
    if (!senders.has(txHash)) {
      senders.set(txHash, lower((await client.getTransaction({ hash: txHash })).from));
    }
    if (!timestamps.has(log.blockNumber)) {
      timestamps.set(
        log.blockNumber,
        Number((await client.getBlock({ blockNumber: log.blockNumber })).timestamp),
      );
    }
    const { token0, token1 } = pairs.get(pool)!;
    events.push({
      txHash,
      ...position,
      timestamp: timestamps.get(log.blockNumber)!,
      pool,
      token0,
      token1,
      type: log.eventName === "Mint" ? "mint" : "burn",
      sender: senders.get(txHash)!,
      owner: lower(log.eventName === "Mint" ? log.args.sender! : log.args.to!),
      amount0: log.args.amount0!,
      amount1: log.args.amount1!,
    });
  }
  const order = (
    a: { blockNumber: bigint; logIndex: number },
    b: { blockNumber: bigint; logIndex: number },
  ) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1);
  return { events: events.sort(order), syncs: syncs.sort(order) };
}
