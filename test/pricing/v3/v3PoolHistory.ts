import type { Address, PublicClient } from "viem";
import type { V3PoolStateRead } from "../../../src/chain/readV3PoolState.js";
import { applyLiquidityChange } from "../../../src/pricing/v3/applyLiquidityChange.js";
import {
  createTickTable,
  type ReadonlyTickTable,
  type TickTable,
} from "../../../src/pricing/v3/createTickTable.js";
import { swapExactInput } from "../../../src/pricing/v3/swapExactInput.js";
import type { V3PoolState } from "../../../src/pricing/v3/v3Types.js";
import { type pancakePoolEventsAbi, poolEventsAbi } from "./v3Fixture.js";

/** A pool's state as plain rows, to compare states from different sources with toEqual. */
export interface PlainPoolState {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  ticks: { tick: number; liquidityNet: bigint; liquidityGross: bigint }[];
}

export function plainTicks(ticks: ReadonlyTickTable): PlainPoolState["ticks"] {
  return [...ticks.entries()].map(([tick, info]) => ({
    tick,
    liquidityNet: info.liquidityNet,
    liquidityGross: info.liquidityGross,
  }));
}

/** The swap state of a pool read with readV3PoolState. */
export function toPoolState(read: V3PoolStateRead): V3PoolState & { ticks: TickTable } {
  return {
    sqrtPriceX96: read.sqrtPriceX96,
    tick: read.tick,
    liquidity: read.liquidity,
    fee: read.fee,
    tickSpacing: read.tickSpacing,
    ticks: createTickTable(read.ticks.map((t) => [t.tick, t] as const)),
  };
}

/**
 * Rebuilds a pool's state from its Initialize, Mint, Burn and Swap logs alone, the way the
 * indexer will: Mint and Burn through applyLiquidityChange, Swap taking the log's price, tick and
 * liquidity. Also returns how many events of each kind it applied. `events`: the pool's dialect
 * (PancakeSwap's Swap has two more fields, hence another topic).
 */
export async function rebuildFromLogs(
  client: PublicClient,
  pool: Address,
  events: typeof poolEventsAbi | typeof pancakePoolEventsAbi = poolEventsAbi,
): Promise<{ state: PlainPoolState; counts: Record<string, number> }> {
  const logs = await client.getLogs({
    address: pool,
    events,
    fromBlock: 0n,
    toBlock: "latest",
  });
  const ticks = createTickTable();
  let sqrtPriceX96 = 0n;
  let tick = 0;
  let liquidity = 0n;
  const counts: Record<string, number> = { Initialize: 0, Mint: 0, Burn: 0, Swap: 0 };
  const change = (lower: number, upper: number, delta: bigint) => {
    const result = applyLiquidityChange({ ticks, tick, liquidity }, lower, upper, delta);
    ticks.set(result.lower.tick, result.lower.liquidityNet, result.lower.liquidityGross);
    ticks.set(result.upper.tick, result.upper.liquidityNet, result.upper.liquidityGross);
    liquidity = result.liquidity;
  };
  for (const log of logs) {
    counts[log.eventName] = (counts[log.eventName] ?? 0) + 1;
    switch (log.eventName) {
      case "Initialize":
        sqrtPriceX96 = log.args.sqrtPriceX96 as bigint;
        tick = log.args.tick as number;
        break;
      case "Mint":
        change(log.args.tickLower as number, log.args.tickUpper as number, log.args.amount as bigint);
        break;
      case "Burn":
        change(log.args.tickLower as number, log.args.tickUpper as number, -(log.args.amount as bigint));
        break;
      case "Swap":
        sqrtPriceX96 = log.args.sqrtPriceX96 as bigint;
        tick = log.args.tick as number;
        liquidity = log.args.liquidity as bigint;
        break;
      default: {
        const never: never = log;
        throw new Error(`unexpected log ${String(never)}`);
      }
    }
  }
  return { state: { sqrtPriceX96, tick, liquidity, ticks: plainTicks(ticks) }, counts };
}

/**
 * PoolTicksCounter.countInitializedTicksCrossed, which QuoterV2 reports, ported over a tick
 * table: it compresses ticks by truncation (not flooring) and counts whole bitmap bits between
 * the ticks before and after, so it can differ from the ticks a swap really crossed.
 */
export function quoterTicksCrossed(
  ticks: ReadonlyTickTable,
  tickSpacing: number,
  tickBefore: number,
  tickAfter: number,
): number {
  const compressedBefore = Math.trunc(tickBefore / tickSpacing);
  const compressedAfter = Math.trunc(tickAfter / tickSpacing);
  const has = (compressed: number) => ticks.get(compressed * tickSpacing) !== undefined;
  const low = Math.min(compressedBefore, compressedAfter);
  const high = Math.max(compressedBefore, compressedAfter);
  let count = 0;
  for (const [tick] of ticks.entries()) {
    const compressed = tick / tickSpacing;
    if (compressed >= low && compressed <= high) count++;
  }
  if (has(compressedAfter) && tickAfter % tickSpacing === 0 && tickBefore > tickAfter) count--;
  if (has(compressedBefore) && tickBefore % tickSpacing === 0 && tickBefore < tickAfter) count--;
  return count;
}

/**
 * Whether QuoterV2's count is the number of ticks crossed: both ticks compress alike by
 * truncation and flooring, the swap moved the tick, and the lower one does not sit inside an
 * initialized tick's spacing (which the counter counts as crossed).
 */
export function quoterCountIsExact(
  ticks: ReadonlyTickTable,
  tickSpacing: number,
  tickBefore: number,
  tickAfter: number,
): boolean {
  if (tickBefore === tickAfter) return false;
  const floorsAlike = (tick: number) => tick >= 0 || tick % tickSpacing === 0;
  if (!floorsAlike(tickBefore) || !floorsAlike(tickAfter)) return false;
  const lower = Math.min(tickBefore, tickAfter);
  return lower % tickSpacing === 0 || ticks.get(Math.floor(lower / tickSpacing) * tickSpacing) === undefined;
}

/** The smallest of a geometric series of amounts whose swap crosses at least `ticks` initialized ticks. */
export function amountCrossing(state: V3PoolState, zeroForOne: boolean, ticks: number): bigint {
  for (let amount = 1000n; amount < 1n << 160n; amount = (amount * 13n) / 10n) {
    const result = swapExactInput(state, zeroForOne, amount);
    if (result.ticksCrossed >= ticks && result.amountIn === amount) return amount;
  }
  throw new Error(`no amount crosses ${ticks} ticks`);
}
