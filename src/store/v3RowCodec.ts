import type { Address, LiquidityEvent, V3PoolPrice, V3TickLiquidity } from "../domain/types.js";
import { decodeEventPosition, type EventPositionRow, type Int } from "./rowCodec.js";

// Rows of the V3 tables as both drivers return them (see rowCodec.ts): INTEGER/int8 as bigint or
// string, int4 as number, decimal TEXT/NUMERIC as string.

export interface V3PriceRow {
  pool: string;
  block_number: Int;
  log_index: Int;
  sqrt_price_x96: string;
  tick: Int;
  liquidity: string;
  /** NULL in rows written before schema version 9. */
  balance0: string | null;
  balance1: string | null;
}

export interface V3TickRow {
  pool: string;
  tick: Int;
  block_number: Int;
  liquidity_net: string;
  liquidity_gross: string;
}

export interface LiquidityEventRow extends EventPositionRow {
  type: string;
  sender: string;
  owner: string;
  amount0: string;
  amount1: string;
  liquidity: string | null;
  tick_lower: Int | null;
  tick_upper: Int | null;
  amount_usd: string;
}

/** A v3_prices row as a V3PoolPrice. */
export function decodeV3Price(row: V3PriceRow): V3PoolPrice {
  return {
    pool: row.pool as Address,
    blockNumber: BigInt(row.block_number),
    logIndex: Number(row.log_index),
    sqrtPriceX96: BigInt(row.sqrt_price_x96),
    tick: Number(row.tick),
    liquidity: BigInt(row.liquidity),
    ...(row.balance0 === null || row.balance1 === null
      ? {}
      : { balances: { balance0: BigInt(row.balance0), balance1: BigInt(row.balance1) } }),
  };
}

/** A v3_ticks row as a V3TickLiquidity. */
export function decodeV3Tick(row: V3TickRow): V3TickLiquidity {
  return {
    pool: row.pool as Address,
    blockNumber: BigInt(row.block_number),
    tick: Number(row.tick),
    liquidityNet: BigInt(row.liquidity_net),
    liquidityGross: BigInt(row.liquidity_gross),
  };
}

const optionalNumber = (value: Int | null): number | undefined =>
  value === null ? undefined : Number(value);

/** A liquidity_events row as a LiquidityEvent. */
export function decodeLiquidityEvent(row: LiquidityEventRow): LiquidityEvent {
  return {
    ...decodeEventPosition(row),
    type: row.type === "burn" ? "burn" : "mint",
    sender: row.sender as Address,
    owner: row.owner as Address,
    amount0: BigInt(row.amount0),
    amount1: BigInt(row.amount1),
    liquidity: row.liquidity === null ? undefined : BigInt(row.liquidity),
    tickLower: optionalNumber(row.tick_lower),
    tickUpper: optionalNumber(row.tick_upper),
    amountUsd: BigInt(row.amount_usd),
  };
}
