import type { DevnetMarket, DevnetToken } from "../devnetTypes.js";
import type { DevnetPreset } from "../presets/devnetPresets.js";

/**
 * Picks the two listed tokens whose pool opens off the market mid-week: the preset's first listed
 * token outside the pricing whitelist, with the first base token (not a stablecoin, not the
 * wrapped native) it has no pool with on the first DEX. Both must already trade in deep pools, so
 * the USD guard has a market to hold the new pool's price against: bsc CAKE/BTCB, eth and polygon
 * LINK/WBTC. Undefined when the market has no such pair (e.g. a one-pair chain).
 */
export function pickOffMarketPair(
  preset: DevnetPreset,
  market: DevnetMarket,
): [DevnetToken, DevnetToken] | undefined {
  // No stablecoin: the guard values a stablecoin side at 1 USD whatever the pool says, so only a
  // pair of two volatile tokens shows whether it takes a price from the new pool.
  const stable = new Set(preset.stablecoins);
  const base = new Set(preset.baseTokens);
  const pooled = (symbol: string) => market.pools.some((p) => p.a.symbol === symbol || p.b.symbol === symbol);
  const usable = (symbol: string) => {
    const token = market.tokens.get(symbol);
    return token?.listed && !token.isWrappedNative && pooled(symbol) ? token : undefined;
  };
  const onFirstDex = (a: DevnetToken, b: DevnetToken) =>
    market.pools.some(
      (p) =>
        p.dex === 0 &&
        ((p.a.address === a.address && p.b.address === b.address) ||
          (p.a.address === b.address && p.b.address === a.address)),
    );
  for (const spec of preset.tokens) {
    if (base.has(spec.symbol) || stable.has(spec.symbol)) continue;
    const token = usable(spec.symbol);
    if (token === undefined) continue;
    for (const symbol of preset.baseTokens) {
      if (stable.has(symbol)) continue;
      const partner = usable(symbol);
      if (partner !== undefined && !onFirstDex(token, partner)) return [token, partner];
    }
  }
  return undefined;
}
