/** 2^96: V3 prices are square roots in Q64.96 fixed point. */
export const Q96 = 1n << 96n;
/** The lowest and highest ticks a V3 pool allows. */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

// TickMath.getSqrtRatioAtTick's factors: sqrt(1.0001)^-(2^i) in Q128.128, for bits 1..19.
const FACTORS: readonly bigint[] = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];
const MAX_UINT256 = (1n << 256n) - 1n;

/** sqrt(1.0001^tick) in Q64.96, exactly as the pools' TickMath computes it. */
export function getSqrtRatioAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  if (abs > MAX_TICK) throw new Error(`v3: tick ${tick} out of range`);
  let ratio = (abs & 1) !== 0 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 1n << 128n;
  FACTORS.forEach((factor, i) => {
    if ((abs & (2 << i)) !== 0) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** Integer square root (floor). */
export function sqrtBigint(value: bigint): bigint {
  if (value < 0n) throw new Error("v3: square root of a negative number");
  if (value < 2n) return value;
  // Newton's method from above (the float estimate is only close): it falls to floor(sqrt).
  let x = BigInt(Math.ceil(Math.sqrt(Number(value)))) + 1n;
  while (x * x < value) x *= 2n;
  let y = (x + value / x) >> 1n;
  while (y < x) {
    x = y;
    y = (x + value / x) >> 1n;
  }
  return x;
}

/**
 * The sqrt price (Q64.96) of token0 in token1's smallest units, from both tokens' USD prices
 * (10^18-scaled) and decimals: what a pool opened "at the market" is initialized with.
 */
export function sqrtPriceX96FromUsd(
  price0E18: bigint,
  decimals0: number,
  price1E18: bigint,
  decimals1: number,
): bigint {
  const ratioX192 =
    (price0E18 * 10n ** BigInt(decimals1) * (1n << 192n)) / (price1E18 * 10n ** BigInt(decimals0));
  return sqrtBigint(ratioX192);
}

/** The tick whose price is at or just below a sqrt price (to a tick's precision: for picking ranges). */
export function tickAtSqrtPrice(sqrtPriceX96: bigint): number {
  const sqrt = Number(sqrtPriceX96) / Number(Q96);
  const tick = Math.floor((2 * Math.log(sqrt)) / Math.log(1.0001));
  return Math.max(MIN_TICK, Math.min(MAX_TICK, tick));
}

/** Rounds a tick down to a multiple of the spacing, inside the usable range. */
export function alignTick(tick: number, spacing: number): number {
  const lowest = Math.ceil(MIN_TICK / spacing) * spacing;
  const highest = Math.floor(MAX_TICK / spacing) * spacing;
  return Math.max(lowest, Math.min(highest, Math.floor(tick / spacing) * spacing));
}

/** The token amounts `liquidity` in [sqrtA, sqrtB) holds at price `sqrtP` (rounded down). */
export function amountsForLiquidity(
  sqrtP: bigint,
  sqrtA: bigint,
  sqrtB: bigint,
  liquidity: bigint,
): [bigint, bigint] {
  const [lower, upper] = sqrtA < sqrtB ? [sqrtA, sqrtB] : [sqrtB, sqrtA];
  const amount0Between = (from: bigint) => (liquidity * Q96 * (upper - from)) / (upper * from);
  if (sqrtP <= lower) return [amount0Between(lower), 0n];
  if (sqrtP >= upper) return [0n, (liquidity * (upper - lower)) / Q96];
  return [amount0Between(sqrtP), (liquidity * (sqrtP - lower)) / Q96];
}
