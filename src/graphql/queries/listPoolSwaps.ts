import { formatDecimal } from "../../domain/formatDecimal.js";
import type { Address, NetworkName, Trade } from "../../domain/types.js";
import { BadRequestError } from "../../errors.js";
import { assertNetworkConfigured, assertNetworkReady } from "../../views/assertNetworkReady.js";
import { listSwaps, type SwapsArgs } from "../../views/listSwaps.js";
import { poolPassesOf } from "../../views/poolPassesOf.js";
import type { MarketHistory, MarketState } from "../../views/types.js";

/** Arguments of the poolSwaps query (null where GraphQL passes an explicit null). */
export type PoolSwapsArgs = Omit<SwapsArgs, "token" | "trader" | "pool"> & { pool: string };

/** A PoolSwap as the schema shows it, with the swap it belongs to (its edge's cursor). */
export interface PoolSwapOutput {
  swap: Trade;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  timestamp: number;
  sender: string;
  hop: number;
  zeroForOne: boolean;
  amount0: bigint;
  amount1: bigint;
  volumeUSD: string;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const USD_DECIMALS = 18;

/** The passes of one swap through `pool` as PoolSwap shows them (poolPassesOf). */
function passesOf(trade: Trade, pool: Address): PoolSwapOutput[] {
  return poolPassesOf(trade, pool).map((pass) => ({
    swap: trade,
    txHash: trade.txHash,
    logIndex: trade.logIndex,
    blockNumber: trade.blockNumber,
    timestamp: trade.timestamp,
    sender: trade.sender,
    ...pass,
    volumeUSD: formatDecimal(trade.volumeUsd, USD_DECIMALS),
  }));
}

/**
 * One page of the swaps through one indexed pool (Query.poolSwaps): the swaps page of the window
 * narrowed to the pool, each swap's passes through it with the pool's own amounts. Throws 400 for
 * a pool that is not indexed and the swaps query's bad arguments, 503 when not ready.
 */
export async function listPoolSwaps(reader: MarketState & MarketHistory, args: PoolSwapsArgs, nowMs: number) {
  assertNetworkConfigured(reader, args.network);
  if (!ADDRESS.test(args.pool))
    throw new BadRequestError("pool must be an address: 0x followed by 40 hex digits.");
  assertNetworkReady(reader, args.network, nowMs);
  const pool = args.pool.toLowerCase() as Address;
  if (reader.getPoolIndex(args.network).get(pool) === undefined) {
    throw new BadRequestError(`Pool ${pool} is not an indexed pool on ${args.network as NetworkName}.`);
  }
  const page = await listSwaps(reader, { ...args, pool }, nowMs);
  return {
    pageInfo: page.pageInfo,
    edges: page.edges.flatMap(({ node }) => passesOf(node, pool).map((pass) => ({ node: pass }))),
  };
}
