import type { LiquidityEvent } from "../domain/types.js";
import { getTokenPriceUsd } from "../pricing/getTokenPriceUsd.js";
import { amountToUsd } from "../pricing/usdMath.js";
import type { RangeEvent } from "./rangeEvents.js";
import type { DecodeContext, RangeRead } from "./readRange.js";

/**
 * A V2 or V3 Mint or Burn as a liquidity event: its signer, its block's time, and both amounts valued
 * at the prices the pool graph gives after its transaction (0 for a side the rules leave unpriced).
 */
export function valueLiquidityEvent(
  read: RangeRead,
  ctx: DecodeContext,
  event: Extract<RangeEvent, { kind: "v3mint" | "v3burn" | "v2mint" | "v2burn" }>,
): LiquidityEvent {
  const sender = read.senders.get(event.txHash);
  const timestamp = read.timestamps.get(event.blockNumber);
  // validateRange guarantees both; a range that skipped it is a programming error.
  if (sender === undefined || timestamp === undefined) {
    throw new Error(`decodeRange: transaction ${event.txHash} was not validated`);
  }
  const pair = ctx.pairs.get(event.pool)!;
  const side = (token: typeof pair.token0, amount: bigint): bigint => {
    const price = getTokenPriceUsd(ctx.pools, ctx.pricing, token);
    const decimals = ctx.pricing.decimals(token);
    return price === undefined || decimals === undefined ? 0n : amountToUsd(amount, decimals, price);
  };
  return {
    network: ctx.network,
    txHash: event.txHash,
    blockNumber: event.blockNumber,
    timestamp,
    txIndex: event.txIndex,
    logIndex: event.logIndex,
    pool: event.pool,
    type: event.kind === "v3mint" || event.kind === "v2mint" ? "mint" : "burn",
    sender: sender.from,
    owner: event.owner,
    amount0: event.amount0,
    amount1: event.amount1,
    ...("amount" in event
      ? { liquidity: event.amount, tickLower: event.tickLower, tickUpper: event.tickUpper }
      : { liquidity: undefined, tickLower: undefined, tickUpper: undefined }),
    amountUsd: side(pair.token0, event.amount0) + side(pair.token1, event.amount1),
  };
}
