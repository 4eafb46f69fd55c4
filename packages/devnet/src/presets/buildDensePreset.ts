import type { DevnetPoolSpec, DevnetPreset } from "./devnetPresets.js";

/**
 * Derives the dense profile's market from a demo preset: on each DEX, only every listed token's
 * deepest pool (its main pair); no thin pool and no unlisted tokens. Fewer, deeper pools keep
 * prices sane under 100k trades a day, and the routes still hop (CAKE -> WBNB -> USDT).
 * `pools: "one"` keeps only the deepest pool of all (a one-pair chain, e.g. WBNB/USDT).
 */
export function buildDensePreset(preset: DevnetPreset, pools: "main" | "one" = "main"): DevnetPreset {
  const listed = new Set([preset.wrapped.symbol, ...preset.tokens.map((t) => t.symbol)]);
  const regular = preset.pools.filter((p) => p.thin !== true && listed.has(p.a) && listed.has(p.b));
  const keep = new Set<DevnetPoolSpec>();
  if (pools === "one") {
    const deepest = regular.reduce<DevnetPoolSpec | undefined>(
      (best, pool) => (best === undefined || pool.tvlUsd > best.tvlUsd ? pool : best),
      undefined,
    );
    if (deepest === undefined) throw new Error(`devnet preset ${preset.network}: no regular pool`);
    return { ...preset, unlisted: [], pools: [deepest] };
  }
  for (const dex of [0, 1] as const) {
    const onDex = regular.filter((p) => p.dex === dex);
    for (const symbol of listed) {
      let deepest: DevnetPoolSpec | undefined;
      for (const pool of onDex) {
        if (
          (pool.a === symbol || pool.b === symbol) &&
          (deepest === undefined || pool.tvlUsd > deepest.tvlUsd)
        )
          deepest = pool;
      }
      if (deepest !== undefined) keep.add(deepest);
    }
  }
  return {
    ...preset,
    unlisted: [],
    // In the preset's order, so the same seed deploys the same pools in the same order.
    pools: preset.pools.filter((p) => keep.has(p)),
  };
}
