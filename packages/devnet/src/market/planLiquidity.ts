import type { DevnetPoolSpec, DevnetPreset } from "../presets/devnetPresets.js";
import { parseUsd, usdToUnits } from "../usdToUnits.js";

/** A pool spec with the token amounts that put it at its intended price and depth. */
export interface PlannedPool {
  spec: DevnetPoolSpec;
  amountA: bigint;
  amountB: bigint;
}

/**
 * Computes each pool's seed amounts: half its TVL on each side at the preset's prices, or at
 * `priceOf(symbol)` (USD, 10^18-scaled) where it gives one (the reference where history starts).
 */
export function planLiquidity(
  preset: DevnetPreset,
  priceOf: (symbol: string) => bigint | undefined = () => undefined,
): PlannedPool[] {
  const specs = new Map<string, { decimals: number; priceUsd: string }>();
  for (const token of [...preset.tokens, ...preset.unlisted]) specs.set(token.symbol, token);
  specs.set(preset.wrapped.symbol, { decimals: 18, priceUsd: preset.native.priceUsd });
  const lookup = (symbol: string) => {
    const spec = specs.get(symbol);
    if (spec === undefined)
      throw new Error(`devnet preset ${preset.network}: pool token ${symbol} is not defined`);
    return spec;
  };
  return preset.pools.map((spec) => {
    const a = lookup(spec.a);
    const b = lookup(spec.b);
    const halfUsd = parseUsd(spec.tvlUsd.toString()) / 2n;
    const priceA =
      spec.priceA === undefined ? (priceOf(spec.a) ?? parseUsd(a.priceUsd)) : parseUsd(spec.priceA);
    return {
      spec,
      amountA: usdToUnits(halfUsd, priceA, a.decimals),
      amountB: usdToUnits(halfUsd, priceOf(spec.b) ?? parseUsd(b.priceUsd), b.decimals),
    };
  });
}
