import { describe, expect, test } from "vitest";
import type { Address, Hash, Pair } from "../../src/domain/types.js";
import type { SwapEvent } from "../../src/indexer/buildTrades.js";
import { groupSwapChains } from "../../src/indexer/groupSwapChains.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const WBNB = a(1);
const USDT = a(2);
const CAKE = a(3);
const TAX = a(4);
const AGGREGATOR = a(8);
const TRADER = a(7);

function pair(address: Address, token0: Address, token1: Address): Pair {
  return { address, dex: "dex", factory: a(100), token0, token1, feeBps: 30 };
}

/** A swap selling `amountIn` of the pair's token0 (or token1 when `oneIn`) for `amountOut`. */
function swap(
  p: Pair,
  amountIn: bigint,
  amountOut: bigint,
  logIndex: number,
  to: Address,
  oneIn = false,
): SwapEvent {
  return {
    txHash: `0x${"cd".repeat(32)}` as Hash,
    blockNumber: 10n,
    logIndex,
    pair: p,
    amount0In: oneIn ? 0n : amountIn,
    amount1In: oneIn ? amountIn : 0n,
    amount0Out: oneIn ? amountOut : 0n,
    amount1Out: oneIn ? 0n : amountOut,
    to,
  };
}

const wbnbUsdt = pair(a(50), WBNB, USDT);
const usdtCake = pair(a(51), USDT, CAKE);
const cakeWbnb = pair(a(52), CAKE, WBNB);
const taxWbnb = pair(a(53), TAX, WBNB);
const logIndexes = (chains: SwapEvent[][]) => chains.map((chain) => chain.map((s) => s.logIndex));

describe("groupSwapChains", () => {
  test("behavior: hops whose pool sent the output to the next pool are one chain", () => {
    const chains = groupSwapChains([
      swap(wbnbUsdt, 5n, 3000n, 3, usdtCake.address),
      swap(usdtCake, 3000n, 1200n, 7, TRADER),
    ]);
    expect(logIndexes(chains)).toEqual([[3, 7]]);
  });

  test("behavior: an output taken in and forwarded whole still chains", () => {
    const chains = groupSwapChains([
      swap(wbnbUsdt, 5n, 3000n, 3, AGGREGATOR),
      swap(usdtCake, 3000n, 1200n, 9, TRADER),
    ]);
    expect(logIndexes(chains)).toEqual([[3, 9]]);
  });

  test("behavior: a fee-on-transfer token sent pool to pool arrives short and still chains", () => {
    // CAKE -> TAX -> WBNB: the second pool received 98% of what the first sent.
    const cakeTax = pair(a(54), CAKE, TAX);
    const chains = groupSwapChains([
      swap(cakeTax, 100n, 1000n, 2, taxWbnb.address),
      swap(taxWbnb, 980n, 40n, 6, TRADER),
    ]);
    expect(logIndexes(chains)).toEqual([[2, 6]]);
  });

  test("behavior: independent swaps are separate chains, even when one sells what another bought", () => {
    const chains = groupSwapChains([
      // WBNB -> USDT to the trader, then the trader's own USDT -> CAKE: not the same USDT.
      swap(wbnbUsdt, 5n, 3000n, 3, TRADER),
      swap(usdtCake, 2000n, 800n, 7, TRADER),
      // CAKE -> WBNB after a swap that bought CAKE, but not that amount and not sent there.
      swap(cakeWbnb, 10n, 1n, 11, TRADER),
      // TAX -> WBNB: another token altogether.
      swap(taxWbnb, 50n, 2n, 15, TRADER, false),
    ]);
    expect(logIndexes(chains)).toEqual([[3], [7], [11], [15]]);
  });

  test("args: no swaps give no chains", () => {
    expect(groupSwapChains([])).toEqual([]);
  });
});
