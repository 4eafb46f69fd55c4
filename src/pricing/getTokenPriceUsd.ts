import { type Address, USD_SCALE } from "../domain/types.js";
import { getNativePriceUsd } from "./getNativePriceUsd.js";
import type { PoolIndex, PricingParams } from "./types.js";
import { amountToUsd, memoPrice, pow10, reservesFor } from "./usdMath.js";

/**
 * USD price (10^18-scaled, per whole token) of `token`: stablecoins are 1 USD, the wrapped
 * native coin its stablecoin-weighted price, any other token the price implied by its most
 * liquid pair with a whitelisted token (base tokens, stablecoins, wrapped native) whose
 * whitelisted side holds at least minLiquidityUsd. Undefined when unpriced.
 */
export function getTokenPriceUsd(
  index: PoolIndex,
  params: PricingParams,
  token: Address,
): bigint | undefined {
  if (params.stablecoins.has(token)) return USD_SCALE;
  if (token === params.wrappedNative) return getNativePriceUsd(index, params);
  return memoPrice(index, params, token, () => {
    // The whitelisted side is priced at most one level down (anchorPrice), so there is no loop.
    return priceFromPairs(index, params, token, whitelistOf(params).sides, (base) =>
      whitelistedPrice(index, params, base),
    );
  });
}

const whitelists = new WeakMap<PricingParams, { sides: Set<Address>; anchors: Set<Address> }>();

// Tokens that may price others (base tokens, stables, native) and those that price a base token.
function whitelistOf(params: PricingParams): { sides: Set<Address>; anchors: Set<Address> } {
  let lists = whitelists.get(params);
  if (lists === undefined) {
    lists = {
      sides: new Set([...params.baseTokens, ...params.stablecoins, params.wrappedNative]),
      anchors: new Set([...params.stablecoins, params.wrappedNative]),
    };
    whitelists.set(params, lists);
  }
  return lists;
}

// A whitelisted token's price: stable, native, or its most liquid pair with a stable or the native.
function whitelistedPrice(index: PoolIndex, params: PricingParams, base: Address): bigint | undefined {
  if (params.stablecoins.has(base)) return USD_SCALE;
  if (base === params.wrappedNative) return getNativePriceUsd(index, params);
  return memoPrice(index, params, `anchor:${base}`, () => {
    return priceFromPairs(index, params, base, whitelistOf(params).anchors, (anchor) =>
      params.stablecoins.has(anchor) ? USD_SCALE : getNativePriceUsd(index, params),
    );
  });
}

// The price implied by the most liquid pair of `token` with one of `sides`, counting only pairs
// whose priced side holds at least minLiquidityUsd: thin or brand-new pools never set a price.
function priceFromPairs(
  index: PoolIndex,
  params: PricingParams,
  token: Address,
  sides: ReadonlySet<Address>,
  priceOf: (side: Address) => bigint | undefined,
): bigint | undefined {
  const tokenDecimals = params.decimals(token);
  if (tokenDecimals === undefined) return undefined;
  let bestLiquidity = -1n;
  let bestPrice: bigint | undefined;
  for (const side of sides) {
    if (side === token) continue;
    const sideDecimals = params.decimals(side);
    if (sideDecimals === undefined) continue;
    let sidePrice: bigint | undefined;
    for (const pool of index.poolsBetween(token, side)) {
      const [tokenReserve, sideReserve] = reservesFor(pool, token);
      if (tokenReserve === 0n || sideReserve === 0n) continue;
      // Price the side lazily: most tokens have no pair with most whitelisted tokens.
      sidePrice ??= priceOf(side);
      if (sidePrice === undefined) break;
      const liquidity = amountToUsd(sideReserve, sideDecimals, sidePrice);
      if (liquidity < params.minLiquidityUsd || liquidity <= bestLiquidity) continue;
      bestLiquidity = liquidity;
      bestPrice = (sidePrice * sideReserve * pow10(tokenDecimals)) / (tokenReserve * pow10(sideDecimals));
    }
  }
  return bestPrice;
}
