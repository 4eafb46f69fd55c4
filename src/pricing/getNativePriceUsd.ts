import { USD_SCALE } from "../domain/types.js";
import type { PoolIndex, PricingParams } from "./types.js";
import { amountToUsd, memoPrice, pow10, reservesFor } from "./usdMath.js";

/**
 * USD price (10^18-scaled, per whole coin) of the wrapped native coin: the average of its
 * stablecoin pairs' prices weighted by each pair's stablecoin reserve in USD (the subgraph's
 * getEthPriceInUSD). Pairs whose stable side holds less than minLiquidityUsd are ignored;
 * undefined when none qualifies.
 */
export function getNativePriceUsd(index: PoolIndex, params: PricingParams): bigint | undefined {
  return memoPrice(index, params, "native", () => computeNativePriceUsd(index, params));
}

function computeNativePriceUsd(index: PoolIndex, params: PricingParams): bigint | undefined {
  const native = params.wrappedNative;
  const nativeDecimals = params.decimals(native);
  if (nativeDecimals === undefined) return undefined;
  let weightedSum = 0n;
  let totalWeight = 0n;
  for (const stable of params.stablecoins) {
    if (stable === native) continue;
    const stableDecimals = params.decimals(stable);
    if (stableDecimals === undefined) continue;
    for (const pool of index.poolsBetween(native, stable)) {
      const [nativeReserve, stableReserve] = reservesFor(pool, native);
      if (nativeReserve === 0n) continue;
      const stableUsd = amountToUsd(stableReserve, stableDecimals, USD_SCALE);
      if (stableUsd === 0n || stableUsd < params.minLiquidityUsd) continue;
      const price = (stableUsd * pow10(nativeDecimals)) / nativeReserve;
      weightedSum += price * stableUsd;
      totalWeight += stableUsd;
    }
  }
  return totalWeight === 0n ? undefined : weightedSum / totalWeight;
}
