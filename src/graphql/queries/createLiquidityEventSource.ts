import { formatDecimal } from "../../domain/formatDecimal.js";
import type { LiquidityEvent } from "../../domain/types.js";
import type { GraphqlContext } from "../context/createGraphqlContext.js";
import { createTokenAmountSource, type TokenAmountSource } from "./createSwapSource.js";
import type { PoolSource } from "./listPools.js";

const USD_DECIMALS = 18;

/** The parent of LiquidityEvent fields: every field a property (the type has no resolvers but the enum's). */
export interface LiquidityEventSource {
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly timestamp: number;
  /** The domain's value; the LiquidityEventType enum maps it to MINT or BURN. */
  readonly type: LiquidityEvent["type"];
  readonly sender: string;
  readonly owner: string;
  readonly pool: PoolSource;
  readonly amount0: TokenAmountSource;
  readonly amount1: TokenAmountSource;
  readonly liquidity: bigint | null;
  readonly tickLower: number | null;
  readonly tickUpper: number | null;
  readonly amountUSD: string;
}

/**
 * A stored liquidity event as the parent of LiquidityEvent fields, within one request: its pool
 * (and so its tokens) from the live pool graph, which holds every pool the indexer recorded
 * events of. Throws (an internal error) for a pool the graph does not hold.
 */
export function createLiquidityEventSource(event: LiquidityEvent, ctx: GraphqlContext): LiquidityEventSource {
  const { network } = event;
  const pool = ctx.reader.getPoolIndex(network).get(event.pool);
  if (pool === undefined)
    throw new Error(`liquidityEvents: pool ${event.pool} is not in the ${network} pool graph`);
  return {
    txHash: event.txHash,
    logIndex: event.logIndex,
    blockNumber: event.blockNumber,
    timestamp: event.timestamp,
    type: event.type,
    sender: event.sender,
    owner: event.owner,
    pool: { ...pool, network },
    amount0: createTokenAmountSource(network, pool.token0, event.amount0, ctx),
    amount1: createTokenAmountSource(network, pool.token1, event.amount1, ctx),
    liquidity: event.liquidity ?? null,
    tickLower: event.tickLower ?? null,
    tickUpper: event.tickUpper ?? null,
    amountUSD: formatDecimal(event.amountUsd, USD_DECIMALS),
  };
}
