import type { Address } from "../domain/types.js";
import { USD_SCALE } from "../domain/types.js";
import { getTokenPriceUsd } from "./getTokenPriceUsd.js";
import type { PoolIndex, PricingParams } from "./types.js";
import { amountToUsd } from "./usdMath.js";

/** Arguments of valueTradeUsd: both tokens as addresses (the native coin mapped to the wrapped one). */
export interface ValueTradeArgs {
  index: PoolIndex;
  params: PricingParams;
  tokenIn: Address;
  amountIn: bigint;
  tokenOut: Address;
  amountOut: bigint;
}

/** USD value of a trade and whether it could be priced (untracked trades are worth 0). */
export interface TradeValue {
  volumeUsd: bigint;
  tracked: boolean;
}

const UNTRACKED: TradeValue = { volumeUsd: 0n, tracked: false };

// USD of one side, or undefined when its token is unpriced or its decimals unknown.
function sideUsd(
  args: ValueTradeArgs,
  token: Address,
  amount: bigint,
  price: bigint | undefined,
): bigint | undefined {
  const decimals = args.params.decimals(token);
  if (price === undefined || decimals === undefined) return undefined;
  return amountToUsd(amount, decimals, price);
}

/**
 * Values a trade in USD (10^18-scaled) like the subgraph's tracked volume: by its stablecoin
 * side(s) when it has one, else the average of its priced sides, else 0 and untracked.
 */
export function valueTradeUsd(args: ValueTradeArgs): TradeValue {
  const { index, params, tokenIn, amountIn, tokenOut, amountOut } = args;
  const stableIn = params.stablecoins.has(tokenIn) ? sideUsd(args, tokenIn, amountIn, USD_SCALE) : undefined;
  const stableOut = params.stablecoins.has(tokenOut)
    ? sideUsd(args, tokenOut, amountOut, USD_SCALE)
    : undefined;
  const [usdIn, usdOut] =
    stableIn !== undefined || stableOut !== undefined
      ? [stableIn, stableOut]
      : [
          sideUsd(args, tokenIn, amountIn, getTokenPriceUsd(index, params, tokenIn)),
          sideUsd(args, tokenOut, amountOut, getTokenPriceUsd(index, params, tokenOut)),
        ];
  if (usdIn !== undefined && usdOut !== undefined) return { volumeUsd: (usdIn + usdOut) / 2n, tracked: true };
  if (usdIn !== undefined) return { volumeUsd: usdIn, tracked: true };
  if (usdOut !== undefined) return { volumeUsd: usdOut, tracked: true };
  return UNTRACKED;
}
