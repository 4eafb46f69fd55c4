import { describe, expect, test } from "vitest";
import type { Address, Hash, Pair } from "../../src/domain/types.js";
import type { SwapEvent } from "../../src/indexer/buildTrades.js";
import { matchNativeSides, type WrapEvent } from "../../src/indexer/matchNativeSides.js";

const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const WBNB = a(1);
const USDT = a(2);
const CAKE = a(3);
const ROUTER = a(9);
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

const deposit = (logIndex: number, account: Address, amount: bigint): WrapEvent => ({
  kind: "deposit",
  logIndex,
  account,
  amount,
});
const withdrawal = (logIndex: number, account: Address, amount: bigint): WrapEvent => ({
  kind: "withdrawal",
  logIndex,
  account,
  amount,
});

const wbnbUsdt = pair(a(50), WBNB, USDT);
const usdtCake = pair(a(51), USDT, CAKE);
const cakeWbnb = pair(a(52), CAKE, WBNB);
const none = { nativeIn: false, nativeOut: false };

describe("matchNativeSides", () => {
  test("behavior: a router's wrap pays its trade's first pool; its unwrap pays out the last pool's output", () => {
    expect(
      matchNativeSides([[swap(wbnbUsdt, 5n, 3000n, 2, TRADER)]], [deposit(0, ROUTER, 5n)], WBNB),
    ).toEqual([{ nativeIn: true, nativeOut: false }]);
    expect(
      matchNativeSides([[swap(wbnbUsdt, 3000n, 5n, 2, ROUTER, true)]], [withdrawal(4, ROUTER, 5n)], WBNB),
    ).toEqual([{ nativeIn: false, nativeOut: true }]);
  });

  test("behavior: in one aggregator transaction only the trade the wrap paid for is native", () => {
    // Trader's own WBNB -> USDT (5), then native 7 wrapped -> USDT, then USDT -> CAKE.
    const chains = [
      [swap(wbnbUsdt, 5n, 3000n, 1, TRADER)],
      [swap(wbnbUsdt, 7n, 4100n, 4, TRADER)],
      [swap(usdtCake, 900n, 300n, 6, TRADER)],
    ];
    expect(matchNativeSides(chains, [deposit(2, AGGREGATOR, 7n)], WBNB)).toEqual([
      none,
      { nativeIn: true, nativeOut: false },
      none,
    ]);
  });

  test("behavior: only the output sent to the account that unwrapped it, in that amount, is native", () => {
    const chains = [
      // CAKE -> WBNB straight to the trader (stays wrapped), then CAKE -> WBNB to the aggregator.
      [swap(cakeWbnb, 100n, 9n, 1, TRADER)],
      [swap(cakeWbnb, 100n, 9n, 3, AGGREGATOR)],
    ];
    expect(matchNativeSides(chains, [withdrawal(5, AGGREGATOR, 9n)], WBNB)).toEqual([
      none,
      { nativeIn: false, nativeOut: true },
    ]);
    // Unwrapping another amount, or before the swap, pays out nothing of it.
    expect(matchNativeSides([chains[1]!], [withdrawal(5, AGGREGATOR, 8n)], WBNB)).toEqual([none]);
    expect(matchNativeSides([chains[1]!], [withdrawal(2, AGGREGATOR, 9n)], WBNB)).toEqual([none]);
  });

  test("behavior: each wrap and unwrap pays for one trade at most", () => {
    const chains = [[swap(wbnbUsdt, 5n, 3000n, 2, TRADER)], [swap(wbnbUsdt, 5n, 2990n, 4, TRADER)]];
    // One deposit of 5 before both: the nearest later trade is not double-counted.
    expect(matchNativeSides(chains, [deposit(0, ROUTER, 5n)], WBNB)).toEqual([
      { nativeIn: true, nativeOut: false },
      none,
    ]);
    expect(matchNativeSides(chains, [deposit(0, ROUTER, 5n), deposit(3, ROUTER, 5n)], WBNB)).toEqual([
      { nativeIn: true, nativeOut: false },
      { nativeIn: true, nativeOut: false },
    ]);
  });

  test("behavior: a wrap of another amount, a later wrap, or a split wrap makes no side native", () => {
    const chains = [[swap(wbnbUsdt, 5n, 3000n, 2, TRADER)], [swap(wbnbUsdt, 3n, 1800n, 4, TRADER)]];
    expect(matchNativeSides([chains[0]!], [deposit(0, ROUTER, 6n)], WBNB)).toEqual([none]);
    expect(matchNativeSides([chains[0]!], [deposit(3, ROUTER, 5n)], WBNB)).toEqual([none]);
    // 8 wrapped and split 5 + 3 over two pools: neither amount is the deposit's.
    expect(matchNativeSides(chains, [deposit(0, AGGREGATOR, 8n)], WBNB)).toEqual([none, none]);
  });

  test("behavior: a multi-hop trade is native by its first and last pools", () => {
    const chain = [swap(wbnbUsdt, 5n, 3000n, 2, usdtCake.address), swap(usdtCake, 3000n, 1000n, 4, TRADER)];
    expect(matchNativeSides([chain], [deposit(0, ROUTER, 5n), withdrawal(6, ROUTER, 1000n)], WBNB)).toEqual([
      { nativeIn: true, nativeOut: false },
    ]);
  });
});
