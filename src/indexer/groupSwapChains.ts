import { type SwapEvent, swapSides } from "./buildTrades.js";

/**
 * Splits the swaps of one transaction (in log order) into trades. A swap continues the chain of
 * the swap before it when it sells the token that swap bought and that output went on to it:
 * the previous pool sent it straight to this pool (Router02 and most aggregators), or the exact
 * amount came in (an aggregator that took the output and forwarded it). Any other swap starts a
 * new trade, so an aggregator's independent swaps are separate trades, even when one happens to
 * sell what another bought.
 */
export function groupSwapChains(swaps: readonly SwapEvent[]): SwapEvent[][] {
  const chains: SwapEvent[][] = [];
  let chain: SwapEvent[] = [];
  let previous: SwapEvent | undefined;
  for (const swap of swaps) {
    if (previous !== undefined && !continues(previous, swap)) {
      chains.push(chain);
      chain = [];
    }
    chain.push(swap);
    previous = swap;
  }
  if (chain.length > 0) chains.push(chain);
  return chains;
}

function continues(previous: SwapEvent, next: SwapEvent): boolean {
  const out = swapSides(previous);
  const into = swapSides(next);
  if (out.tokenOut !== into.tokenIn) return false;
  // A fee-on-transfer token sent pool to pool arrives short: the recipient decides, not the amount.
  return previous.to === next.pair.address || out.amountOut === into.amountIn;
}
