import type { Address } from "viem";
import {
  alignTick,
  amountsForLiquidity,
  getSqrtRatioAtTick,
  MAX_TICK,
  MIN_TICK,
  tickAtSqrtPrice,
} from "./v3Math.js";
import type { DevnetV3Pool, DevnetV3Position } from "./v3Types.js";

/** A range relative to the price: log-price offsets (0.02 = about 2%), widened to whole spacings. */
export interface RangeShape {
  below: number;
  above: number;
}

/** Full range: the pool's lowest to highest usable tick. */
const FULL_RANGE: RangeShape = { below: Number.POSITIVE_INFINITY, above: Number.POSITIVE_INFINITY };

/**
 * The setup's positions of a regular pool, as shares of its TVL: full range and wide ranges of the
 * deployer, narrow ones around the price by two providers, one out of range on each side (only
 * token0 above the price, only token1 below), so ticks are initialized on both sides of the price.
 */
const SETUP_RANGES: readonly { owner: number; share: number; shape: RangeShape }[] = [
  { owner: 0, share: 0.35, shape: FULL_RANGE },
  { owner: 0, share: 0.25, shape: { below: 0.25, above: 0.25 } },
  { owner: 1, share: 0.2, shape: { below: 0.015, above: 0.015 } },
  { owner: 2, share: 0.1, shape: { below: 0.05, above: 0.03 } },
  { owner: 3, share: 0.05, shape: { below: -0.08, above: 0.2 } },
  { owner: 0, share: 0.05, shape: { below: 0.2, above: -0.08 } },
];

/** The ticks of a range shape around `sqrtPriceX96` on a pool's spacing (never empty). */
export function rangeTicks(sqrtPriceX96: bigint, spacing: number, shape: RangeShape): [number, number] {
  const center = tickAtSqrtPrice(sqrtPriceX96);
  const ticksPer = (offset: number) => Math.round(offset / Math.log(1.0001));
  const lower = Number.isFinite(shape.below)
    ? alignTick(center - ticksPer(shape.below), spacing)
    : alignTick(MIN_TICK, spacing);
  let upper = Number.isFinite(shape.above)
    ? alignTick(center + ticksPer(shape.above) + spacing, spacing)
    : alignTick(MAX_TICK, spacing);
  if (upper <= lower) upper = lower + spacing;
  return [lower, upper];
}

/**
 * The liquidity worth `usdE18` in [tickLower, tickUpper) at `sqrtPriceX96` with the tokens'
 * USD prices (10^18-scaled), and the token amounts it takes.
 */
export function liquidityForUsd(
  pool: Pick<DevnetV3Pool, "token0" | "token1">,
  prices: { price0E18: bigint; price1E18: bigint },
  sqrtPriceX96: bigint,
  ticks: [number, number],
  usdE18: bigint,
): { liquidity: bigint; amount0: bigint; amount1: bigint } {
  const unit = 10n ** 18n;
  const sqrtA = getSqrtRatioAtTick(ticks[0]);
  const sqrtB = getSqrtRatioAtTick(ticks[1]);
  const [u0, u1] = amountsForLiquidity(sqrtPriceX96, sqrtA, sqrtB, unit);
  const unitUsd =
    (u0 * prices.price0E18) / 10n ** BigInt(pool.token0.decimals) +
    (u1 * prices.price1E18) / 10n ** BigInt(pool.token1.decimals);
  if (unitUsd === 0n) return { liquidity: 0n, amount0: 0n, amount1: 0n };
  const liquidity = (unit * usdE18) / unitUsd;
  const [amount0, amount1] = amountsForLiquidity(sqrtPriceX96, sqrtA, sqrtB, liquidity);
  return { liquidity, amount0, amount1 };
}

/** The setup positions of one pool (the thin pool: one full-range position of the first owner). */
export function planSetupPositions(
  pool: DevnetV3Pool,
  prices: { price0E18: bigint; price1E18: bigint },
  sqrtPriceX96: bigint,
  owners: readonly Address[],
): (DevnetV3Position & { amount0: bigint; amount1: bigint })[] {
  const ranges = pool.thin ? [{ owner: 0, share: 1, shape: FULL_RANGE }] : SETUP_RANGES;
  const tvlE18 = pool.tvlUsd * 10n ** 18n;
  return ranges.flatMap(({ owner, share, shape }) => {
    const ticks = rangeTicks(sqrtPriceX96, pool.tickSpacing, shape);
    const usd = (tvlE18 * BigInt(Math.round(share * 1000))) / 1000n;
    const planned = liquidityForUsd(pool, prices, sqrtPriceX96, ticks, usd);
    if (planned.liquidity === 0n) return [];
    return [
      {
        owner: owners[owner % owners.length] as Address,
        pool: pool.address,
        tickLower: ticks[0],
        tickUpper: ticks[1],
        ...planned,
      },
    ];
  });
}
