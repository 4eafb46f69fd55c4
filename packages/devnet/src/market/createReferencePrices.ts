import type { Prng } from "../createPrng.js";
import type { DevnetPreset } from "../presets/devnetPresets.js";
import { parseUsd } from "../usdToUnits.js";

/** The USD reference prices of a devnet's listed tokens over time: what the arbitrage follows. */
export interface ReferencePrices {
  /** Symbols with a reference: the wrapped native and every listed token. */
  readonly symbols: readonly string[];
  /**
   * USD price (10^18-scaled) of `symbol` at `timestamp` (unix seconds), clamped to the walk's
   * ends; undefined for a token without a reference (unlisted tokens).
   */
  at(symbol: string, timestamp: number): bigint | undefined;
}

/** Options of a reference walk. */
export interface ReferencePricesOptions {
  /** Unix seconds where the walk starts: the pools are seeded at these prices. */
  fromTimestamp: number;
  /** Unix seconds where the walk ends at the preset's prices; later times keep them. */
  toTimestamp: number;
  /** Seconds between the walk's knots (default 6 hours); prices move in straight lines in between. */
  stepSeconds?: number;
}

const DEFAULT_VOLATILITY = 0.02;
// Share of each token's variance that comes from the whole market moving together.
const MARKET_SHARE = 0.5;
const PPB = 1_000_000_000;

/**
 * A seeded random walk of every listed token's USD price (the wrapped native's too) that ends at
 * the preset's prices at `toTimestamp`: drawn backwards from today, so the history leads up to
 * the prices the README shows. Log-normal steps with each token's daily volatility, half of the
 * variance shared by the whole market; stablecoins stay pegged at 1.
 */
export function createReferencePrices(
  preset: DevnetPreset,
  prng: Prng,
  options: ReferencePricesOptions,
): ReferencePrices {
  const step = options.stepSeconds ?? 6 * 3600;
  const span = Math.max(0, options.toTimestamp - options.fromTimestamp);
  const knots = Math.max(1, Math.ceil(span / step));
  const stable = new Set(preset.stablecoins);
  const specs = [
    {
      symbol: preset.wrapped.symbol,
      priceUsd: preset.native.priceUsd,
      volatility: preset.native.volatility ?? DEFAULT_VOLATILITY,
    },
    ...preset.tokens.map((t) => ({
      symbol: t.symbol,
      priceUsd: t.priceUsd,
      volatility: stable.has(t.symbol) ? 0 : (t.volatility ?? DEFAULT_VOLATILITY),
    })),
  ];
  // log-price offsets from today's price, knot 0 = toTimestamp, knot k = k steps earlier.
  const offsets = new Map<string, Float64Array>(specs.map((s) => [s.symbol, new Float64Array(knots + 1)]));
  const stepsPerDay = 86_400 / step;
  for (let k = 1; k <= knots; k++) {
    const market = prng.normal();
    for (const spec of specs) {
      const path = offsets.get(spec.symbol) as Float64Array;
      const sigma = spec.volatility / Math.sqrt(stepsPerDay);
      const shock = Math.sqrt(MARKET_SHARE) * market + Math.sqrt(1 - MARKET_SHARE) * prng.normal();
      path[k] = (path[k - 1] ?? 0) + sigma * shock;
    }
  }
  const today = new Map(specs.map((s) => [s.symbol, parseUsd(s.priceUsd)]));
  return {
    symbols: specs.map((s) => s.symbol),
    at(symbol, timestamp) {
      const price = today.get(symbol);
      const path = offsets.get(symbol);
      if (price === undefined || path === undefined) return undefined;
      const back = Math.min(knots, Math.max(0, (options.toTimestamp - timestamp) / step));
      const k = Math.floor(back);
      const lower = path[k] ?? 0;
      const upper = path[Math.min(knots, k + 1)] ?? lower;
      const factor = Math.exp(lower + (upper - lower) * (back - k));
      return (price * BigInt(Math.round(factor * PPB))) / BigInt(PPB);
    },
  };
}
