import { addDelta } from "./addDelta.js";
import type { ReadonlyTickTable } from "./createTickTable.js";
import { MAX_TICK, MIN_TICK } from "./getSqrtRatioAtTick.js";

/** A tick's liquidity after a change; liquidityGross 0 means the tick is no longer initialized. */
interface TickLiquidityAfter {
  tick: number;
  liquidityNet: bigint;
  liquidityGross: bigint;
}

/** What a Mint or Burn leaves: the pool's active liquidity and its two bound ticks. */
export interface LiquidityChangeResult {
  liquidity: bigint;
  lower: TickLiquidityAfter;
  upper: TickLiquidityAfter;
}

/**
 * What a Mint (liquidityDelta > 0) or Burn (< 0) of a position [tickLower, tickUpper) does to a
 * pool, as UniswapV3Pool._modifyPosition does it: both bounds gain |delta| gross, the lower one
 * +delta net and the upper one −delta net, and the active liquidity changes only when the
 * position is in range (tickLower <= tick < tickUpper). Pure: the caller writes `lower` and
 * `upper` into its tick table (a gross of 0 removes the tick). A zero delta (a Burn of 0 that
 * only collects fees) changes nothing, as in the pool.
 */
export function applyLiquidityChange(
  pool: { readonly ticks: ReadonlyTickTable; readonly tick: number; readonly liquidity: bigint },
  tickLower: number,
  tickUpper: number,
  liquidityDelta: bigint,
): LiquidityChangeResult {
  if (tickLower >= tickUpper)
    throw new Error(`applyLiquidityChange: tickLower ${tickLower} >= tickUpper (TLU)`);
  if (tickLower < MIN_TICK) throw new Error(`applyLiquidityChange: tickLower ${tickLower} < MIN_TICK (TLM)`);
  if (tickUpper > MAX_TICK) throw new Error(`applyLiquidityChange: tickUpper ${tickUpper} > MAX_TICK (TUM)`);
  const bound = (tick: number, upper: boolean): TickLiquidityAfter => {
    const before = pool.ticks.get(tick);
    const gross = before?.liquidityGross ?? 0n;
    const net = before?.liquidityNet ?? 0n;
    if (liquidityDelta === 0n) return { tick, liquidityNet: net, liquidityGross: gross };
    const liquidityGross = addDelta(gross, liquidityDelta);
    // A tick left by its last position is cleared, net included.
    if (liquidityGross === 0n) return { tick, liquidityNet: 0n, liquidityGross };
    return { tick, liquidityNet: upper ? net - liquidityDelta : net + liquidityDelta, liquidityGross };
  };
  const inRange = tickLower <= pool.tick && pool.tick < tickUpper;
  return {
    liquidity: inRange ? addDelta(pool.liquidity, liquidityDelta) : pool.liquidity,
    lower: bound(tickLower, false),
    upper: bound(tickUpper, true),
  };
}
