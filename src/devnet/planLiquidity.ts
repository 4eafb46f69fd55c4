import type { DevnetPoolSpec, DevnetPreset } from "./devnetPresets.js";
import { parseUsd, usdToUnits } from "./usdToUnits.js";

/** A pool spec with the token amounts that put it at its intended price and depth. */
export interface PlannedPool {
  spec: DevnetPoolSpec;
  amountA: bigint;
  amountB: bigint;
}

/** Computes each pool's seed amounts: half its TVL on each side at the preset's prices. */
export function planLiquidity(preset: DevnetPreset): PlannedPool[] {
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
    return {
      spec,
      amountA: usdToUnits(halfUsd, parseUsd(spec.priceA ?? a.priceUsd), a.decimals),
      amountB: usdToUnits(halfUsd, parseUsd(b.priceUsd), b.decimals),
    };
  });
}
